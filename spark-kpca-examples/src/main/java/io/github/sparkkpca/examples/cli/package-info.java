/**
 * The {@code spark-kpca} command line (picocli): {@link
 * io.github.sparkkpca.examples.cli.SparkKpcaCli} and one class per command ({@code *Command}), the
 * option groups several commands share (picocli mixins: {@code KernelOptions}, {@code
 * OverwriteOption}, {@code ModelOutputOptions}, {@code ReproductionOptions}, {@code InputOptions},
 * {@code PlotOptions}, {@code SparkOptions}), the checks of output paths ({@code OutputTargets})
 * and the console output (summaries, progress, ordered score files). The work of {@code reproduce}
 * and {@code bench} lives in their own packages. Not a library API: the command line and its exit
 * codes are the interface.
 */
package io.github.sparkkpca.examples.cli;
