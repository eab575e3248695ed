package io.github.sparkkpca.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.ml.KernelPCA;
import io.github.sparkkpca.ml.KernelPCAModel;
import io.github.sparkkpca.ml.KernelPCARegressionModel;
import io.github.sparkkpca.ml.KernelPCARegressor;
import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import io.github.sparkkpca.ml.RandomFeatureKernelPCA;
import io.github.sparkkpca.ml.RandomFeatureKernelPCAModel;
import io.github.sparkkpca.persistence.Manifest;
import io.github.sparkkpca.persistence.Persistence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Saved models of every kind for the tests that tamper with them: one model of each kind fitted
 * once per JVM on the {@link #rows standard rows}, saved anew for each test that asks, and the
 * edits those tests make to a saved model's tables and metadata.
 */
public final class SavedModelKinds {

  private SavedModelKinds() {}

  private static Dataset<Row> rows;

  /** The standard rows: 60 seeded cluster points in R³ ({@code clusters(60, 3, 3)}), 2 slices. */
  public static synchronized Dataset<Row> rows() {
    if (rows == null) {
      rows = LocalSpark.frame(LocalSpark.clusters(60, 3, 3), 2);
    }
    return rows;
  }

  /** The standard rows labelled y = x₀ − x₁ (column {@code label}). */
  public static Dataset<Row> labelledRows() {
    double[][] x = LocalSpark.clusters(60, 3, 3);
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = x[i][0] - x[i][1];
    }
    return LocalSpark.labelled(x, y, 2);
  }

  /** A model kind: how it is fitted on the standard rows, its class name and how it is loaded. */
  public enum Kind {
    NYSTROM(
        "nystrom",
        "NystromKernelPCAModel",
        () -> new NystromKernelPCA().setK(2).setNumLandmarks(10).setSeed(1).fit(rows()),
        NystromKernelPCAModel::load),
    RANDOM_FEATURES(
        "rff",
        "RandomFeatureKernelPCAModel",
        () ->
            new RandomFeatureKernelPCA()
                .setK(2)
                .setNumRandomFeatures(20)
                .setGamma(0.3)
                .setSeed(5)
                .fit(rows()),
        RandomFeatureKernelPCAModel::load),
    EXACT(
        "exact", "KernelPCAModel", () -> new KernelPCA().setK(2).fit(rows()), KernelPCAModel::load),
    REGRESSION(
        "regression",
        "KernelPCARegressionModel",
        () ->
            new KernelPCARegressor()
                .setGamma(0.5)
                .setNumLandmarks(20)
                .setDimension(2)
                .fit(labelledRows()),
        KernelPCARegressionModel::load);

    private final String directory;
    private final String className;
    private final Supplier<MLWritable> fit;
    private final Function<String, Object> load;
    private MLWritable model;

    Kind(
        String directory,
        String className,
        Supplier<MLWritable> fit,
        Function<String, Object> load) {
      this.directory = directory;
      this.className = className;
      this.fit = fit;
      this.load = load;
    }

    /** The name of its directories. */
    public String directory() {
      return directory;
    }

    /** Its model class's simple name, as load errors name it. */
    public String className() {
      return className;
    }

    /** The fitted model, fitted once per JVM: save it, do not change its params. */
    public synchronized MLWritable model() {
      if (model == null) {
        model = fit.get();
      }
      return model;
    }

    /** Loads a model of this kind. */
    public Object load(String path) {
      return load.apply(path);
    }

    /** Saves the model to {@code parent/<directory><suffix>} and returns that path. */
    public Path saveTo(Path parent, String suffix) {
      Path path = parent.resolve(directory + suffix);
      try {
        model().write().save(path.toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return path;
    }
  }

  /**
   * Replaces {@code field} of every row of the table {@code data/<table>} by {@code value}, and
   * drops the stage's manifest (as in a model saved before manifests), so that what refuses it is
   * the check of the numbers.
   */
  public static void setField(String path, String table, String field, Object value) {
    dropManifest(Path.of(path));
    mapField(Path.of(path), table, field, v -> value);
  }

  /**
   * Makes a saved stage one saved before manifests: drops its manifest and the metadata's record of
   * it ({@code "manifest"}, without which a stage missing its manifest is refused).
   */
  public static void dropManifest(Path path) {
    try {
      Files.deleteIfExists(path.resolve(Manifest.NAME));
      rewriteMetadata(path.toString(), root -> (ObjectNode) root.without("manifest"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces {@code field} of every row of {@code data/<table>} by {@code f} of its value. */
  public static void mapField(Path path, String table, String field, UnaryOperator<Object> f) {
    Dataset<Row> df = LocalSpark.spark().read().parquet(path + "/data/" + table);
    StructType schema = df.schema();
    int index = schema.fieldIndex(field);
    List<Row> rows = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = i == index ? f.apply(row.get(i)) : row.get(i);
      }
      rows.add(RowFactory.create(values));
    }
    Path rewritten = path.resolve("data").resolve(table + "-new");
    LocalSpark.spark()
        .createDataFrame(rows, schema)
        .coalesce(1)
        .write()
        .parquet(rewritten.toString());
    try {
      deleteTree(path.resolve("data").resolve(table));
      Files.move(rewritten, path.resolve("data").resolve(table));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Rewrites the metadata JSON through {@code edit}, dropping the manifest as {@link #setField}.
   */
  public static void editMetadata(String path, UnaryOperator<ObjectNode> edit) {
    dropManifest(Path.of(path));
    try {
      rewriteMetadata(path, edit);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Rewrites the metadata JSON through {@code edit} (and deletes its checksum files). */
  public static void rewriteMetadata(String path, UnaryOperator<ObjectNode> edit)
      throws IOException {
    try (Stream<Path> files = Files.list(Path.of(path, "metadata"))) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.startsWith("part-")) {
          JsonNode root = Persistence.JSON.readTree(Files.readString(f).trim());
          Files.writeString(f, edit.apply((ObjectNode) root).toString() + "\n");
        } else if (name.endsWith(".crc")) {
          Files.delete(f);
        }
      }
    }
  }

  /** The metadata JSON of a saved model. */
  public static JsonNode metadata(String path) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(path, "metadata"))) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().startsWith("part-")) {
          return Persistence.JSON.readTree(Files.readString(f).trim());
        }
      }
    }
    throw new IOException("no metadata part file under " + path);
  }

  /** Deletes a directory and everything under it. */
  public static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
