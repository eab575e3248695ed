/**
 * Paper reproductions and comparisons run by {@code spark-kpca reproduce}: Sterge et al. (AISTATS
 * 2020), the landmark strategies, Hallgren (2021) and Braun, Buhmann and Müller, with their
 * spectra, statistics and CSV output. Not a library API.
 */
package io.github.sparkkpca.examples.reproduce;
