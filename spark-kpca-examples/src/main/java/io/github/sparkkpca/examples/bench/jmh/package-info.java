/**
 * JMH micro-benchmarks of the kernel block, exp, the readout and the statistics. Not a library API.
 */
package io.github.sparkkpca.examples.bench.jmh;
