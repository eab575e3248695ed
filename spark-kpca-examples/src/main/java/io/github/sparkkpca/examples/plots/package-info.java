/**
 * PNG charts (XChart): of a model (scree, reconstruction error, embedding), of the relevant
 * dimension estimate, and the chart helpers the reproductions use. {@code ModelPlots} is usable
 * from notebooks.
 */
package io.github.sparkkpca.examples.plots;
