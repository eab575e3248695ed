package io.github.sparkkpca.examples.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * The wide sparse rows of {@code spark-kpca bench sparse}, written as libsvm files under {@code
 * work} by a seeded generator that streams its rows (no n×d array), once per parameters (a later
 * run with the same parameters reuses the file):
 *
 * <ul>
 *   <li><b>text</b>: TF-IDF-like rows over d columns: about {@code nnz} term draws per row from a
 *       Zipf law (exponent 1.1) over a vocabulary whose ranks are permuted per topic (four topics,
 *       a quarter of the draws shared), term counts times an IDF weight log(1 + 1/p) of the term's
 *       probability p, rows L2-normalised.
 *   <li><b>onehot</b>: 20 categorical columns of 10 to {@code maxCategories} categories
 *       (geometric), each value Zipf-drawn from a ranking that depends on one of four latent
 *       groups, one-hot encoded and concatenated (d = the total of the categories, 20 ones per
 *       row).
 * </ul>
 *
 * @param work the directory of the files
 * @param rows the rows of each file
 * @param seed the generator's seed
 */
record SparseFiles(Path work, long rows, long seed) {

  private static final int TOPICS = 4;
  private static final int CATEGORICAL_COLUMNS = 20;

  /** A generated libsvm file: its path, columns and non-zeros. */
  record Generated(Path path, int columns, long nonZeros) {}

  /** The TF-IDF-like text rows over {@code d} columns, about {@code nnz} term draws each. */
  Generated text(int d, int nnz) throws IOException {
    Path path =
        work.resolve(
            String.format(Locale.ROOT, "text-n%d-d%d-nnz%d-s%d.libsvm", rows, d, nnz, seed));
    // Zipf(1.1) over the d ranks: cumulative weights for inverse-CDF draws.
    double[] cumulative = new double[d];
    double total = 0;
    for (int r = 0; r < d; r++) {
      total += Math.pow(r + 1, -1.1);
      cumulative[r] = total;
    }
    double[] idf = new double[d];
    for (int r = 0; r < d; r++) {
      double p = Math.pow(r + 1, -1.1) / total;
      idf[r] = Math.log(1 + 1 / p);
    }
    SplittableRandom random = new SplittableRandom(seed);
    int[][] permutation = new int[TOPICS + 1][];
    for (int t = 0; t <= TOPICS; t++) {
      permutation[t] = permutation(d, random);
    }
    long nonZeros = 0;
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    boolean cached = Files.exists(path);
    try (BufferedWriter w = cached ? null : Files.newBufferedWriter(tmp)) {
      double[] counts = new double[d];
      int[] touched = new int[nnz];
      double[] weights = new double[nnz];
      for (long i = 0; i < rows; i++) {
        int topic = (int) (i % TOPICS);
        int distinct = 0;
        for (int p = 0; p < nnz; p++) {
          int rank = draw(cumulative, total, random);
          // A quarter of the draws from the shared vocabulary, the rest from the topic's.
          int column = permutation[random.nextInt(4) == 0 ? TOPICS : topic][rank];
          if (counts[column] == 0) {
            touched[distinct++] = column;
          }
          counts[column] += idf[rank];
        }
        Arrays.sort(touched, 0, distinct);
        double sq = 0;
        for (int q = 0; q < distinct; q++) {
          weights[q] = counts[touched[q]];
          sq += weights[q] * weights[q];
          counts[touched[q]] = 0;
        }
        nonZeros += distinct;
        if (w != null) {
          StringBuilder line = new StringBuilder().append(topic);
          double norm = Math.sqrt(sq);
          for (int q = 0; q < distinct; q++) {
            line.append(' ')
                .append(touched[q] + 1)
                .append(':')
                .append(sixDigits(weights[q] / norm));
          }
          w.write(line.append('\n').toString());
        }
      }
    }
    if (!cached) {
      Files.move(tmp, path);
    }
    return new Generated(path, d, nonZeros);
  }

  /** The one-hot rows, the widest of their 20 columns of {@code maxCategories} categories. */
  Generated oneHot(int maxCategories) throws IOException {
    Path path =
        work.resolve(
            String.format(Locale.ROOT, "onehot-n%d-c%d-s%d.libsvm", rows, maxCategories, seed));
    int[] sizes = new int[CATEGORICAL_COLUMNS];
    int[] offsets = new int[CATEGORICAL_COLUMNS];
    int columns = 0;
    double ratio = Math.pow(maxCategories / 10.0, 1.0 / (CATEGORICAL_COLUMNS - 1));
    SplittableRandom random = new SplittableRandom(seed);
    double[][] cumulative = new double[CATEGORICAL_COLUMNS][];
    int[][][] ranking = new int[CATEGORICAL_COLUMNS][TOPICS][];
    for (int c = 0; c < CATEGORICAL_COLUMNS; c++) {
      sizes[c] = (int) Math.round(10 * Math.pow(ratio, c));
      offsets[c] = columns;
      columns += sizes[c];
      cumulative[c] = new double[sizes[c]];
      double total = 0;
      for (int r = 0; r < sizes[c]; r++) {
        total += Math.pow(r + 1, -1.1);
        cumulative[c][r] = total;
      }
      for (int g = 0; g < TOPICS; g++) {
        ranking[c][g] = permutation(sizes[c], random);
      }
    }
    long nonZeros = rows * CATEGORICAL_COLUMNS;
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    if (!Files.exists(path)) {
      try (BufferedWriter w = Files.newBufferedWriter(tmp)) {
        for (long i = 0; i < rows; i++) {
          int group = (int) (i % TOPICS);
          StringBuilder line = new StringBuilder().append(group);
          for (int c = 0; c < CATEGORICAL_COLUMNS; c++) {
            double[] cdf = cumulative[c];
            int rank = draw(cdf, cdf[cdf.length - 1], random);
            line.append(' ').append(offsets[c] + ranking[c][group][rank] + 1).append(":1");
          }
          w.write(line.append('\n').toString());
        }
      }
      Files.move(tmp, path);
    }
    return new Generated(path, columns, nonZeros);
  }

  private static int[] permutation(int n, SplittableRandom random) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  /** An index drawn from cumulative weights (inverse CDF by binary search). */
  private static int draw(double[] cumulative, double total, SplittableRandom random) {
    int r = Arrays.binarySearch(cumulative, random.nextDouble() * total);
    return Math.min(r >= 0 ? r : -r - 1, cumulative.length - 1);
  }

  /** m distinct row numbers, a seeded uniform sample, ascending. */
  int[] sampleRows(int m) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    TreeSet<Long> chosen = new TreeSet<>();
    while (chosen.size() < m) {
      chosen.add(random.nextLong(rows));
    }
    return chosen.stream().mapToInt(Long::intValue).toArray();
  }

  /** The sparse vectors of the given (ascending) rows of a generated libsvm file. */
  static Vector[] readRows(Generated file, int[] wanted) throws IOException {
    Vector[] out = new Vector[wanted.length];
    try (BufferedReader reader = Files.newBufferedReader(file.path())) {
      int next = 0;
      String line;
      for (int row = 0; next < wanted.length && (line = reader.readLine()) != null; row++) {
        if (row != wanted[next]) {
          continue;
        }
        String[] items = line.trim().split(" ");
        int[] indices = new int[items.length - 1];
        double[] values = new double[items.length - 1];
        for (int p = 1; p < items.length; p++) {
          int colon = items[p].indexOf(':');
          indices[p - 1] = Integer.parseInt(items[p].substring(0, colon)) - 1;
          values[p - 1] = Double.parseDouble(items[p].substring(colon + 1));
        }
        out[next++] = new SparseVector(file.columns(), indices, values);
      }
      if (next < wanted.length) {
        throw new IllegalStateException(file.path() + " has fewer rows than row " + wanted[next]);
      }
    }
    return out;
  }

  /**
   * v to six significant digits, the value {@code String.format("%.6g", v)} writes (half-up
   * rounding of the shortest decimal that reads back as v), without the formatter's cost, which
   * dominated writing 10^6 rows.
   */
  static String sixDigits(double v) {
    return new BigDecimal(Double.toString(v))
        .round(new MathContext(6, RoundingMode.HALF_UP))
        .toPlainString();
  }
}
