package io.github.sparkkpca.examples.data;

/**
 * What to load and how to name it: the command-line input options as a plain value, so the data
 * sources stay independent of the command-line parser and can be used (and tested) directly.
 *
 * @param input a path (file, directory or glob, any Hadoop file system) or a built-in source:
 *     {@code mnist:train}, {@code mnist:test} (optionally {@code :digit=D}) or {@code
 *     synthetic[:n=..,d=..,seed=..,clusters=..,partitions=..]}
 * @param format the file format, or null to infer it from the path ({@link InputFormat#fromPath})
 * @param featuresCol the name of the vector column to produce (or, for Parquet, to read)
 * @param labelCol the label column, or null: for CSV/Parquet the one column that is not a feature;
 *     for the built-in and libsvm sources the name given to their label column (default {@code
 *     label})
 * @param partitions the number of partitions to repartition to (for built-in sources: to generate
 *     or read), or null to keep what the source gives
 * @param mnistDir the directory holding the MNIST IDX files, or null for {@link
 *     MnistSource#defaultDir()}
 * @param expectedFeatures the vector size the data must have, or null; libsvm files are read with
 *     this size (a test file need not mention the highest feature index)
 * @param featureNames the names of the features a model reads, in its order, or null: CSV files and
 *     assembled Parquet columns are then read by these names (each file by its own header) and must
 *     hold exactly these columns besides the label; null takes the features in the order of the
 *     first file's header (CSV) or of the schema (Parquet)
 * @param ignoreFeatureNames whether to leave the names out: the vector column then carries no
 *     feature names (not even a Parquet vector column's own), so a model scores it by position and
 *     a fit records none; {@code featureNames} is not used
 * @param expectedOfModel whether {@code expectedFeatures} is the d of a model the rows are read for
 *     (then messages say "the model's d features"), not {@code --num-features}
 */
public record SourceOptions(
    String input,
    InputFormat format,
    String featuresCol,
    String labelCol,
    Integer partitions,
    String mnistDir,
    Integer expectedFeatures,
    java.util.List<String> featureNames,
    boolean ignoreFeatureNames,
    boolean expectedOfModel) {

  public SourceOptions {
    if (input == null || input.isBlank()) {
      throw new IllegalArgumentException("--input: an input path or built-in source is needed");
    }
    if (featuresCol == null || featuresCol.isBlank()) {
      throw new IllegalArgumentException("--features-col must not be empty");
    }
    if (labelCol != null && labelCol.isBlank()) {
      labelCol = null;
    }
    if (partitions != null && partitions < 1) {
      throw new IllegalArgumentException("--partitions must be >= 1, got " + partitions);
    }
    if (featureNames != null) {
      featureNames = featureNames.isEmpty() ? null : java.util.List.copyOf(featureNames);
    }
  }

  /** Options without feature names: the features as the input gives them. */
  public SourceOptions(
      String input,
      InputFormat format,
      String featuresCol,
      String labelCol,
      Integer partitions,
      String mnistDir,
      Integer expectedFeatures) {
    this(
        input,
        format,
        featuresCol,
        labelCol,
        partitions,
        mnistDir,
        expectedFeatures,
        null,
        false,
        false);
  }

  /** Options for {@code input} with the default column names and no repartitioning. */
  public static SourceOptions of(String input) {
    return new SourceOptions(input, null, "features", null, null, null, null);
  }

  /** A copy with {@code expectedFeatures} set, as {@code --num-features} states it. */
  public SourceOptions withExpectedFeatures(Integer d) {
    return withExpected(d, false);
  }

  /** A copy with {@code expectedFeatures} set to the d of the model the rows are read for. */
  public SourceOptions withModelFeatures(int d) {
    return withExpected(d, true);
  }

  private SourceOptions withExpected(Integer d, boolean ofModel) {
    return new SourceOptions(
        input,
        format,
        featuresCol,
        labelCol,
        partitions,
        mnistDir,
        d,
        featureNames,
        ignoreFeatureNames,
        ofModel);
  }

  /**
   * How {@code expectedFeatures} N is named in messages: "--num-features N", or "the model's N
   * features".
   */
  public String expectedFeaturesName() {
    return expectedOfModel
        ? "the model's " + expectedFeatures + " features"
        : "--num-features " + expectedFeatures;
  }

  /** A copy with {@code partitions} set. */
  public SourceOptions withPartitions(Integer n) {
    return new SourceOptions(
        input,
        format,
        featuresCol,
        labelCol,
        n,
        mnistDir,
        expectedFeatures,
        featureNames,
        ignoreFeatureNames,
        expectedOfModel);
  }

  /** A copy reading the features by the names a model records (none: as the input gives them). */
  public SourceOptions withFeatureNames(String[] names) {
    return new SourceOptions(
        input,
        format,
        featuresCol,
        labelCol,
        partitions,
        mnistDir,
        expectedFeatures,
        names == null ? null : java.util.Arrays.asList(names),
        ignoreFeatureNames,
        expectedOfModel);
  }

  /** A copy with {@code ignoreFeatureNames} set. */
  public SourceOptions withIgnoreFeatureNames(boolean ignore) {
    return new SourceOptions(
        input,
        format,
        featuresCol,
        labelCol,
        partitions,
        mnistDir,
        expectedFeatures,
        featureNames,
        ignore,
        expectedOfModel);
  }

  /** The names to read the features by, or null (none given, or names ignored). */
  java.util.List<String> namesToRead() {
    return ignoreFeatureNames ? null : featureNames;
  }
}
