/**
 * Data sources of the command line, the reproductions and the benchmarks: CSV, Parquet and libsvm
 * files, the built-in MNIST, synthetic and Breiman sources, image subsets, landmark files, and the
 * loaded, validated and ordered input ({@link io.github.sparkkpca.examples.data.LoadedData}). Not a
 * library API.
 */
package io.github.sparkkpca.examples.data;
