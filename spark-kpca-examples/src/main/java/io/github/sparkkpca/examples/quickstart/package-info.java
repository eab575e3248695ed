/** The README's Java quick start, kept compilable and tested. */
package io.github.sparkkpca.examples.quickstart;
