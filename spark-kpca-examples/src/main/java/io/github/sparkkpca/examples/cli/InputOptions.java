package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.SourceOptions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The input options {@code fit} and {@code transform} share (a picocli mixin), turned into the
 * parser-independent {@link SourceOptions}.
 */
public final class InputOptions {

  @Option(
      names = "--input",
      required = true,
      paramLabel = "PATH",
      description =
          "Input file, directory or glob (any Hadoop file system), or a built-in source: "
              + "mnist:train, mnist:test (optionally :digit=D, e.g. mnist:train:digit=5) or "
              + "synthetic:n=N,d=D,seed=S[,clusters=C][,partitions=P].")
  String input;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "Input file format: ${COMPLETION-CANDIDATES}. Default: from the file extension "
              + "(.parquet/.pq, .libsvm/.svm), else csv. CSV has a header row and every column except "
              + "--label-col is a numeric feature; Parquet uses the vector column --features-col if it exists, "
              + "else assembles all numeric columns except --label-col. Ignored for built-in sources.")
  InputFormat format;

  @Option(
      names = "--features-col",
      paramLabel = "NAME",
      defaultValue = "features",
      description =
          "Name of the feature vector column (read from Parquet, else created). "
              + "Default: ${DEFAULT-VALUE}.")
  String featuresCol;

  @Option(
      names = "--label-col",
      paramLabel = "NAME",
      description =
          "CSV/Parquet: the column that is not a feature (kept in transform output). "
              + "Built-in and libsvm sources: the name of their label column (default label).")
  String labelCol;

  @Option(
      names = "--num-features",
      paramLabel = "N",
      description =
          "libsvm input: the number of features N (indices 1..N). Without it every file is read "
              + "once more, first, to find the largest index; with it the files are read once and a "
              + "row with an index above N is refused naming its file and line. Only for libsvm input.")
  Long numFeatures;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = "Repartition the input into N partitions (built-in sources: generate/read N).")
  Integer partitions;

  @Option(
      names = "--mnist-dir",
      paramLabel = "DIR",
      description =
          "Directory of the MNIST IDX files (default: $MNIST_DIR, else ~/.cache/spark-kpca/mnist; "
              + "bin/fetch-mnist downloads them).")
  String mnistDir;

  @Option(
      names = "--ignore-feature-names",
      description =
          "Read the features by position, without their names: the columns in the order of the "
              + "first CSV file's header (or the Parquet schema, or a vector column as it is). A fit "
              + "then records no feature names, and a model scores the rows by position instead of "
              + "reading each file's columns by the names it recorded at fit.")
  boolean ignoreFeatureNames;

  /**
   * The paths the command reads with their options: the input's files, directories or globs (as
   * {@code --input}, or {@code --mnist-dir} for MNIST), then the non-null {@code also} (a model, a
   * landmark file, {@link OutputRules#named}). No output may replace them or be written inside them
   * ({@link OutputRules}).
   */
  List<OutputRules.Named> reading(OutputRules.Named... also) {
    List<OutputRules.Named> reads = new ArrayList<>();
    for (String path : DataSources.inputPaths(toSourceOptions())) {
      reads.add(new OutputRules.Named(path.equals(input.trim()) ? "--input" : "--mnist-dir", path));
    }
    for (OutputRules.Named path : also) {
      if (path != null) {
        reads.add(path);
      }
    }
    return reads;
  }

  /** The options as a data-source request. */
  SourceOptions toSourceOptions() {
    if (numFeatures != null) {
      if (numFeatures < 1 || numFeatures > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "--num-features must be in [1, "
                + Integer.MAX_VALUE
                + "] (the most features a Spark vector holds), got "
                + numFeatures);
      }
      InputFormat resolved = format != null ? format : InputFormat.fromPath(input.trim());
      if (resolved != InputFormat.LIBSVM || !DataSources.isFileInput(input)) {
        throw new IllegalArgumentException(
            "--num-features applies to libsvm input only (--format libsvm or a .libsvm/.svm "
                + "path), not to "
                + input.trim());
      }
    }
    return new SourceOptions(
            input,
            format,
            featuresCol,
            labelCol,
            partitions,
            mnistDir,
            numFeatures == null ? null : numFeatures.intValue())
        .withIgnoreFeatureNames(ignoreFeatureNames);
  }

  /**
   * The options as a request for the rows a model scores or absorbs: {@code d} features, read by
   * the names the model recorded at fit (each CSV file by its own header), unless {@code
   * --ignore-feature-names}.
   */
  SourceOptions forModel(int d, String[] featureNames) {
    if (numFeatures != null && numFeatures.longValue() != d) {
      throw new IllegalArgumentException(
          "--num-features " + numFeatures + " differs from the model's " + d + " features");
    }
    return toSourceOptions().withModelFeatures(d).withFeatureNames(featureNames);
  }
}
