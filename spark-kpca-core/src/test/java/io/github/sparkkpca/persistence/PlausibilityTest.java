package io.github.sparkkpca.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.SavedModelKinds;
import io.github.sparkkpca.testing.SavedModelKinds.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saved models edited and their manifest recomputed, as someone editing a model by hand would: each
 * edit that changes what the model computes is refused on load by {@link Plausibility} with one
 * line naming the path, the file, the entry and both values; the models as saved load.
 */
class PlausibilityTest {

  @TempDir static Path dir;

  /** A number as the messages print it. */
  private static final String NUMBER = "#";

  private static Path sigmoid;

  @BeforeAll
  static void saveModels() throws IOException {
    for (Kind kind : Kind.values()) {
      kind.saveTo(dir.resolve("saved"), "");
    }
    sigmoid = dir.resolve("saved").resolve("sigmoid");
    new NystromKernelPCA()
        .setK(2)
        .setNumLandmarks(12)
        .setKernel("sigmoid")
        .setGamma(0.2)
        .setCoef0(-0.5)
        .setSeed(3)
        .fit(SavedModelKinds.rows())
        .write()
        .save(sigmoid.toString());
  }

  private static int copies;

  /** A copy of the saved model of {@code kind} (with its manifest). */
  private static Path copy(Path saved) throws IOException {
    Path to = dir.resolve("copies").resolve(saved.getFileName() + "-" + copies++);
    try (Stream<Path> files = Files.walk(saved)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(saved.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  private static Path saved(Kind kind) {
    return dir.resolve("saved").resolve(kind.directory());
  }

  /** The manifest written again over the edited files, as the writer writes it. */
  private static Path remanifest(Path path) {
    try {
      FileSystem fs =
          new org.apache.hadoop.fs.Path(path.toString())
              .getFileSystem(LocalSpark.spark().sparkContext().hadoopConfiguration());
      Manifest.write(fs, new org.apache.hadoop.fs.Path(path.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return path;
  }

  /** Rewrites every row of {@code data/<table>} through {@code edit}. */
  private static void editRows(Path path, String table, UnaryOperator<Row> edit) {
    var df = LocalSpark.spark().read().parquet(path + "/data/" + table);
    StructType schema = df.schema();
    List<Row> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      rows.add(edit.apply(row));
    }
    Path rewritten = path.resolve("data").resolve(table + "-new");
    LocalSpark.spark()
        .createDataFrame(rows, schema)
        .coalesce(1)
        .write()
        .parquet(rewritten.toString());
    try {
      SavedModelKinds.deleteTree(path.resolve("data").resolve(table));
      Files.move(rewritten, path.resolve("data").resolve(table));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Row {@code row} with its vector field {@code field} replaced by {@code f} of its values. */
  private static Row withVector(Row row, int field, Function<double[], double[]> f) {
    Object[] values = new Object[row.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(i);
    }
    values[field] = new DenseVector(f.apply(((Vector) row.get(field)).toArray().clone()));
    return RowFactory.create(values);
  }

  /**
   * Asserts that loading fails with exactly {@code line}, "#" standing for each number the message
   * prints (the values found on disk).
   */
  private static void assertRefused(Kind kind, Path path, String line) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> kind.load(path.toString()));
    String expected = "Cannot load " + kind.className() + " from '" + path + "': " + line;
    String[] parts = expected.split(Pattern.quote(NUMBER), -1);
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        regex.append("-?[0-9][0-9.e+-]*");
      }
      regex.append(Pattern.quote(parts[i]));
    }
    assertTrue(
        Pattern.matches(regex.toString(), e.getMessage()),
        "expected\n  " + expected + "\ngot\n  " + e.getMessage());
  }

  @Test
  void theModelsAsSavedLoad() {
    for (Kind kind : Kind.values()) {
      kind.load(saved(kind).toString());
    }
    NystromKernelPCAModel.load(sigmoid.toString());
  }

  /**
   * The writer makes the loader's checks first ({@link ModelChecks#requireLoadable}): a fitted
   * model whose spectrum or components no longer agree with its statistics is refused in one line
   * before anything is written, and the model as fitted passes.
   */
  @Test
  void aFittedModelItsLoaderWouldRefuseIsNotWritten() {
    NystromKernelPCAModel model = NystromKernelPCAModel.load(saved(Kind.NYSTROM).toString());
    io.github.sparkkpca.pca.KernelPCASolution good = model.solution();
    ModelChecks.requireLoadable(good, "fitted");
    io.github.sparkkpca.pca.FeaturePCA fit = good.featurePCA();
    double[] spectrum = fit.spectrum().clone();
    spectrum[0] = -5;
    double[] components = fit.components().clone();
    components[0] *= 3;
    for (io.github.sparkkpca.pca.FeaturePCA edited :
        List.of(
            io.github.sparkkpca.pca.FeaturePCA.restore(
                fit.map(),
                fit.statistics(),
                fit.centered(),
                spectrum,
                fit.components(),
                fit.numComponents()),
            io.github.sparkkpca.pca.FeaturePCA.restore(
                fit.map(),
                fit.statistics(),
                fit.centered(),
                fit.spectrum(),
                components,
                fit.numComponents()))) {
      io.github.sparkkpca.pca.KernelPCASolution bad =
          io.github.sparkkpca.pca.KernelPCASolution.of(
              edited, good.droppedRank(), good.landmarkSelection());
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ModelChecks.requireLoadable(bad, "p"));
      assertTrue(
          e.getMessage()
                  .startsWith(
                      "Cannot save the model to 'p': the fitted model fails a check its loader"
                          + " makes")
              && !e.getMessage().contains("\n"),
          e.getMessage());
    }
  }

  @Test
  void aComponentEntryTimesThreeIsRefused() throws IOException {
    for (Kind kind : List.of(Kind.NYSTROM, Kind.RANDOM_FEATURES)) {
      Path path = copy(saved(kind));
      editRows(
          path,
          "components",
          row ->
              row.getInt(0) == 1
                  ? withVector(
                      row,
                      1,
                      v -> {
                        v[0] *= 3;
                        return v;
                      })
                  : row);
      assertRefused(
          kind,
          remanifest(path),
          "data/components columns 0 and 0: u_0'u_0 = #, but orthonormal components give 1"
              + " (within #)");
    }
  }

  @Test
  void twoComponentsSwappedAreNotEigenvectorsOfTheirEigenvalues() throws IOException {
    Path path = copy(saved(Kind.NYSTROM));
    editRows(
        path,
        "components",
        row ->
            withVector(
                row,
                1,
                v -> {
                  double t = v[0];
                  v[0] = v[1];
                  v[1] = t;
                  return v;
                }));
    assertRefused(
        Kind.NYSTROM,
        remanifest(path),
        "data/components column 0 is not an eigenvector of the covariance of data/statistics and"
            + " data/scatter with data/summary's spectrum entry 0 = #: ||C u - lambda u|| = #"
            + " where rounding allows #");
  }

  @Test
  void aNegativeEigenvalueIsRefused() throws IOException {
    for (Kind kind : List.of(Kind.NYSTROM, Kind.RANDOM_FEATURES, Kind.EXACT)) {
      Path path = copy(saved(kind));
      editRows(
          path,
          "summary",
          row ->
              withVector(
                  row,
                  2,
                  v -> {
                    v[0] = -5;
                    return v;
                  }));
      assertRefused(
          kind,
          remanifest(path),
          "data/summary: spectrum entry 0 = -5.0000000000000000 is negative, but the eigenvalues"
              + " of a covariance are >= 0");
    }
  }

  @Test
  void anUnsortedSpectrumIsRefused() throws IOException {
    Path path = copy(saved(Kind.RANDOM_FEATURES));
    editRows(
        path,
        "summary",
        row ->
            withVector(
                row,
                2,
                v -> {
                  double t = v[0];
                  v[0] = v[1];
                  v[1] = t;
                  return v;
                }));
    assertRefused(
        Kind.RANDOM_FEATURES,
        remanifest(path),
        "data/summary: spectrum entry 1 = # exceeds entry 0 = #, but the eigenvalues are stored in"
            + " descending order");
  }

  @Test
  void anEigenvalueScaledIsRefused() throws IOException {
    Path path = copy(saved(Kind.NYSTROM));
    editRows(
        path,
        "summary",
        row ->
            withVector(
                row,
                2,
                v -> {
                  v[1] *= 1.001;
                  return v;
                }));
    assertRefused(
        Kind.NYSTROM,
        remanifest(path),
        "data/components column 1 is not an eigenvector of the covariance of data/statistics and"
            + " data/scatter with data/summary's spectrum entry 1 = #: ||C u - lambda u|| = #"
            + " where rounding allows #");

    Path exact = copy(saved(Kind.EXACT));
    editRows(
        exact,
        "summary",
        row ->
            withVector(
                row,
                2,
                v -> {
                  v[1] *= 0.999; // exact: the spectrum sums to the total, so only smaller
                  return v;
                }));
    assertRefused(
        Kind.EXACT,
        remanifest(exact),
        "data/support coefficient columns 1 and 1 with data/summary's spectrum entries 1 and 1:"
            + " n sqrt(lambda_1 lambda_1) alpha_1'alpha_1 = #, but exact kernel PCA gives 1"
            + " (within #)");
  }

  @Test
  void anExactCoefficientTimesThreeIsRefused() throws IOException {
    Path path = copy(saved(Kind.EXACT));
    editRows(
        path,
        "support",
        row ->
            row.getInt(0) == 7
                ? withVector(
                    row,
                    2,
                    v -> {
                      v[0] *= 3;
                      return v;
                    })
                : row);
    assertRefused(
        Kind.EXACT,
        remanifest(path),
        "data/support coefficient columns 0 and 0 with data/summary's spectrum entries 0 and 0:"
            + " n sqrt(lambda_0 lambda_0) alpha_0'alpha_0 = #, but exact kernel PCA gives 1"
            + " (within #)");
  }

  @Test
  void aColumnOfTheWhiteningNegatedIsRefused() throws IOException {
    Path path = copy(saved(Kind.NYSTROM));
    editRows(
        path,
        "landmarks",
        row ->
            withVector(
                row,
                2,
                v -> {
                  v[2] = -v[2];
                  return v;
                }));
    assertRefused(
        Kind.NYSTROM,
        remanifest(path),
        "data/landmarks row 2: weight 2 = -#, but the triangular whitening W = R^-1 of the"
            + " Cholesky factor R has a positive diagonal");
  }

  @Test
  void aSigmoidModelsGammaEditedIsRefused() throws IOException {
    Path path = copy(sigmoid);
    SavedModelKinds.rewriteMetadata(
        path.toString(),
        root -> {
          double gamma = root.path("kernel").path("gamma").asDouble();
          ((ObjectNode) root.get("kernel")).put("gamma", 1.1 * gamma);
          ((ObjectNode) root.get("paramMap")).put("gamma", 1.1 * gamma);
          return root;
        });
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> NystromKernelPCAModel.load(remanifest(path).toString()));
    assertTrue(
        Pattern.matches(
            Pattern.quote(
                    "Cannot load NystromKernelPCAModel from '" + path + "': data/landmarks row ")
                + "[0-9]+"
                + Pattern.quote(": with the metadata's kernel sigmoid (k_j its kernel column), ")
                + ".* = -?[0-9.e+-]+ where a whitening of the landmarks' kernel matrix gives"
                + " -?[0-9.e+-]+ \\(within [0-9.e+-]+\\): the weights were edited or computed with"
                + " another kernel or gamma, or from kernel values that lost their precision",
            e.getMessage()),
        e.getMessage());
  }

  @Test
  void repeatedFeatureNamesAreRefused() throws IOException {
    for (Kind kind : List.of(Kind.NYSTROM, Kind.REGRESSION)) {
      Path path = copy(saved(kind));
      SavedModelKinds.rewriteMetadata(
          path.toString(),
          root -> {
            root.putArray("featureNames").add("a").add("b").add("a");
            return root;
          });
      assertRefused(
          kind,
          remanifest(path),
          "its metadata's featureNames[2] = 'a' repeats featureNames[0]: a model records distinct"
              + " names, one per feature");
    }
  }

  @Test
  void aModelSavedWithAManifestIsRefusedWithoutIt() throws IOException {
    for (Kind kind : Kind.values()) {
      Path path = copy(saved(kind));
      Files.delete(path.resolve(Manifest.NAME));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> kind.load(path.toString()));
      assertEquals(
          "Cannot load "
              + kind.className()
              + " from '"
              + path
              + "': _manifest.json is missing, but its metadata records that the stage was saved"
              + " with one (spark-kpca-manifest-1): a file was removed or the copy is incomplete;"
              + " copy the whole directory again or save the model again",
          e.getMessage());
    }
  }

  // Issue 49 item 5: edits (manifest recomputed) that loaded silently and scored differently.

  /** The mean φ̄ and the components U_k (r×k column-major) of a saved feature-map model. */
  private static io.github.sparkkpca.pca.FeaturePCA fitOf(Kind kind) {
    return ((io.github.sparkkpca.ml.AbstractKernelPCAModel<?>) kind.load(saved(kind).toString()))
        .solution()
        .featurePCA();
  }

  /** The entry of φ̄ that moves component 0's score the most when its sign flips. */
  private static int mostInfluentialMeanEntry(io.github.sparkkpca.pca.FeaturePCA fit) {
    double[] mean = fit.statistics().mean();
    double[] u = fit.components();
    int best = 0;
    for (int i = 0; i < mean.length; i++) {
      if (Math.abs(mean[i] * u[i]) > Math.abs(mean[best] * u[best])) {
        best = i;
      }
    }
    return best;
  }

  @Test
  void aMeanEntrysSignFlippedIsRefused() throws IOException {
    for (Kind kind : List.of(Kind.NYSTROM, Kind.RANDOM_FEATURES)) {
      int i = mostInfluentialMeanEntry(fitOf(kind));
      Path path = copy(saved(kind));
      editRows(
          path,
          "statistics",
          row ->
              withVector(
                  row,
                  1,
                  v -> {
                    v[i] = -v[i];
                    return v;
                  }));
      assertRefused(
          kind,
          remanifest(path),
          "data/summary: offset entry 0 = #, but data/components and data/statistics' mean give"
              + " u_0'mean = # (within #): the mean, the components or the offset were edited");
    }
  }

  @Test
  void theMeanScaledWithTheTotalVarianceAdjustedIsRefused() throws IOException {
    // A random-feature model's is refused by the spectrum's bound already: there (1/n)Σ‖φ(x)‖² −
    // ‖φ̄‖² is the centred trace itself, which a larger mean takes below the eigenvalues' sum.
    for (Kind kind : List.of(Kind.NYSTROM)) {
      double[] mean = fitOf(kind).statistics().mean();
      double sq = 0;
      for (double v : mean) {
        sq += v * v;
      }
      double shift = sq - 1.01 * 1.01 * sq; // Nyström: total = (1/n)Σk(x,x) − ‖φ̄‖²
      Path path = copy(saved(kind));
      editRows(
          path,
          "statistics",
          row ->
              withVector(
                  row,
                  1,
                  v -> {
                    for (int t = 0; t < v.length; t++) {
                      v[t] *= 1.01;
                    }
                    return v;
                  }));
      editRows(
          path,
          "summary",
          row -> {
            Object[] values = new Object[row.size()];
            for (int f = 0; f < values.length; f++) {
              values[f] = row.get(f);
            }
            values[4] = row.getDouble(4) + shift;
            return RowFactory.create(values);
          });
      assertRefused(
          kind,
          remanifest(path),
          "data/summary: offset entry 0 = #, but data/components and data/statistics' mean give"
              + " u_0'mean = # (within #): the mean, the components or the offset were edited");
    }
  }

  /**
   * An rbf model of 100 landmarks whose K_mm has condition ~1e12: the whitening's rounding
   * allowance exceeds 1, so {@link Plausibility#whitening} cannot decide, and k(z,z) = 1 whatever
   * γ, so the landmarks' norms move by O(δ²) only. γ × 1.0003 … 1.003 in the metadata is refused by
   * the kernel the features reproduce between two landmarks (first order in δ).
   */
  @Test
  void aGammaEditedByTenthsOfAPercentOnAnIllConditionedModelIsRefused() throws IOException {
    Path illConditioned = dir.resolve("saved").resolve("ill-conditioned");
    new NystromKernelPCA()
        .setK(2)
        .setNumLandmarks(100)
        .setGamma(0.03)
        .setSeed(3)
        .fit(LocalSpark.frame(LocalSpark.clusters(200, 3, 3), 2))
        .write()
        .save(illConditioned.toString());
    NystromKernelPCAModel.load(illConditioned.toString());
    for (double factor : new double[] {1.0003, 1.001, 1.003}) {
      Path path = copy(illConditioned);
      SavedModelKinds.rewriteMetadata(
          path.toString(),
          root -> {
            double gamma = root.path("kernel").path("gamma").asDouble();
            ((ObjectNode) root.get("kernel")).put("gamma", factor * gamma);
            ((ObjectNode) root.get("paramMap")).put("gamma", factor * gamma);
            return root;
          });
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> NystromKernelPCAModel.load(remanifest(path).toString()));
      assertTrue(
          Pattern.matches(
              Pattern.quote("Cannot load NystromKernelPCAModel from '" + path + "': ")
                  + "data/landmarks (rows [0-9]+ and [0-9]+: their features give"
                  + "|row [0-9]+: its weights give) .* the weights were computed with another"
                  + " kernel or gamma, or from kernel values that lost their precision",
              e.getMessage()),
          factor + ": " + e.getMessage());
    }
  }

  @Test
  void aRandomFeaturePhaseOrFrequencyEditedIsRefused() throws IOException {
    Path phase = copy(saved(Kind.RANDOM_FEATURES));
    editRows(
        phase,
        "frequencies",
        row -> {
          if (row.getInt(0) != 3) {
            return row;
          }
          return RowFactory.create(row.get(0), row.get(1), row.getDouble(2) + 0.5);
        });
    assertRefused(
        Kind.RANDOM_FEATURES,
        remanifest(phase),
        "data/frequencies row 3: the phase = #, but seed 5 draws # with the metadata's kernel rbf"
            + " (gamma #): the frequencies, the phases, the kernel or the seed were edited");
    Path frequency = copy(saved(Kind.RANDOM_FEATURES));
    editRows(
        frequency,
        "frequencies",
        row ->
            row.getInt(0) == 3
                ? withVector(
                    row,
                    1,
                    v -> {
                      v[1] *= 1.01;
                      return v;
                    })
                : row);
    assertRefused(
        Kind.RANDOM_FEATURES,
        remanifest(frequency),
        "data/frequencies row 3: frequency entry 1 = #, but seed 5 draws # with the metadata's"
            + " kernel rbf (gamma #): the frequencies, the phases, the kernel or the seed were"
            + " edited");
  }

  @Test
  void aRandomFeatureModelsGammaOrKernelEditedIsRefused() throws IOException {
    Path gamma = copy(saved(Kind.RANDOM_FEATURES));
    SavedModelKinds.rewriteMetadata(
        gamma.toString(),
        root -> {
          double g = root.path("kernel").path("gamma").asDouble();
          ((ObjectNode) root.get("kernel")).put("gamma", 1.01 * g);
          ((ObjectNode) root.get("paramMap")).put("gamma", 1.01 * g);
          return root;
        });
    assertRefused(
        Kind.RANDOM_FEATURES,
        remanifest(gamma),
        "data/frequencies row 0: frequency entry 0 = #, but seed 5 draws # with the metadata's"
            + " kernel rbf (gamma #): the frequencies, the phases, the kernel or the seed were"
            + " edited");
    Path kernel = copy(saved(Kind.RANDOM_FEATURES));
    SavedModelKinds.rewriteMetadata(
        kernel.toString(),
        root -> {
          ((ObjectNode) root.get("kernel")).put("type", "laplacian");
          return root;
        });
    assertRefused(
        Kind.RANDOM_FEATURES,
        remanifest(kernel),
        "data/frequencies row 0: frequency entry 0 = #, but seed 5 draws # with the metadata's"
            + " kernel laplacian (gamma #): the frequencies, the phases, the kernel or the seed were"
            + " edited");
  }

  @Test
  void aMetadataKOtherThanTheStoredComponentsIsRefused() throws IOException {
    for (Kind kind : List.of(Kind.NYSTROM, Kind.RANDOM_FEATURES, Kind.EXACT)) {
      Path path = copy(saved(kind));
      SavedModelKinds.rewriteMetadata(
          path.toString(),
          root -> {
            ((ObjectNode) root.get("paramMap")).put("k", 3);
            return root;
          });
      assertRefused(
          kind,
          remanifest(path),
          "its metadata records k = 3 but data/summary records numComponents = 2");
    }
  }
}
