package io.github.sparkkpca.examples.data;

import java.util.Locale;

/**
 * The file formats an input path can have. A separate type so the command line can parse and list
 * them (picocli converts enum constants case-insensitively) and so an omitted {@code --format} can
 * be inferred from the file name in one place.
 */
public enum InputFormat {
  /** Text with a header row; every column except the label column is a numeric feature. */
  CSV,
  /** A vector column named by the features column, else numeric columns that are assembled. */
  PARQUET,
  /** Spark's libsvm reader: a {@code label} and a sparse {@code features} column. */
  LIBSVM;

  /**
   * The format a path's extension suggests: {@code .parquet}/{@code .pq} is Parquet, {@code
   * .libsvm} / {@code .svm} is libsvm and anything else (including directories) CSV.
   */
  public static InputFormat fromPath(String path) {
    String name = path.toLowerCase(Locale.ROOT);
    while (name.endsWith("/")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.endsWith(".parquet") || name.endsWith(".pq")) {
      return PARQUET;
    }
    if (name.endsWith(".libsvm") || name.endsWith(".svm")) {
      return LIBSVM;
    }
    return CSV;
  }

  /** The lower-case name used on the command line and in messages. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The command-line name, so usage help and error messages list csv, parquet, libsvm. */
  @Override
  public String toString() {
    return cliName();
  }
}
