package io.github.sparkkpca.ml;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Feature names travel with every model kind: recorded at fit from the input column's ML attribute
 * metadata (as {@code VectorAssembler} writes it), saved and loaded, kept by copy and update, and
 * checked by {@code transform} and {@code update}; a column without names is scored by position,
 * and a model saved before names were recorded scores a named column with one warning.
 */
class FeatureNamesTest {

  private static final String[] NAMES = {"x1", "x2", "x3"};

  @TempDir Path dir;

  /** Rows with numeric columns x1, x2, x3 (distinct scales, so a reordering changes scores). */
  private static Dataset<Row> table(int n, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double x1 = random.nextGaussian();
      double x2 = 3 * random.nextGaussian() + 1;
      double x3 = 0.5 * random.nextGaussian() - 2;
      rows.add(RowFactory.create((long) i, x1, x2, x3, x1 + x2 > 1 ? 1.0 : -1.0));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("x1", DataTypes.DoubleType, false)
            .add("x2", DataTypes.DoubleType, false)
            .add("x3", DataTypes.DoubleType, false)
            .add("label", DataTypes.DoubleType, false);
    return LocalSpark.spark().createDataFrame(rows, schema);
  }

  private static Dataset<Row> assembled(Dataset<Row> table, String... columns) {
    return new VectorAssembler()
        .setInputCols(columns)
        .setOutputCol("features")
        .transform(table)
        .select("id", "features", "label");
  }

  /** The same vectors with the attribute metadata dropped (size only). */
  private static Dataset<Row> unnamed(Dataset<Row> data) {
    return data.withColumn(
        "features",
        col("features")
            .as(
                "features",
                new AttributeGroup("features", NAMES.length).toStructField().metadata()));
  }

  private static Model<?> fit(String kind, Dataset<Row> data) {
    return switch (kind) {
      case "nystrom" -> new NystromKernelPCA().setK(2).setNumLandmarks(30).setSeed(3).fit(data);
      case "random" ->
          new RandomFeatureKernelPCA().setK(2).setNumRandomFeatures(40).setSeed(3).fit(data);
      case "exact" -> new KernelPCA().setK(2).fit(data);
      case "regression" ->
          new KernelPCARegressor().setGamma(0.3).setNumLandmarks(30).setDimension(2).fit(data);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private static String[] names(Model<?> model) {
    return model instanceof KernelPCARegressionModel r
        ? r.featureNames()
        : ((AbstractKernelPCAModel<?>) model).featureNames();
  }

  private static Model<?> load(String kind, String path) {
    return switch (kind) {
      case "nystrom" -> NystromKernelPCAModel.load(path);
      case "random" -> RandomFeatureKernelPCAModel.load(path);
      case "exact" -> KernelPCAModel.load(path);
      case "regression" -> KernelPCARegressionModel.load(path);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private static double[][] output(Model<?> model, Dataset<Row> data) {
    Dataset<Row> out = model.transform(data);
    if (model instanceof KernelPCARegressionModel) {
      List<Row> rows = out.orderBy("id").select("prediction").collectAsList();
      double[][] y = new double[rows.size()][];
      for (int i = 0; i < y.length; i++) {
        y[i] = new double[] {rows.get(i).getDouble(0)};
      }
      return y;
    }
    return LocalSpark.collect(out, "kpca");
  }

  @ParameterizedTest
  @ValueSource(strings = {"nystrom", "random", "exact", "regression"})
  void everyModelKindRecordsSavesAndChecksItsNames(String kind) throws Exception {
    Dataset<Row> train = assembled(table(80, 1), NAMES);
    Model<?> model = fit(kind, train);
    assertArrayEquals(NAMES, names(model));
    assertArrayEquals(NAMES, names(model.copy(org.apache.spark.ml.param.ParamMap.empty())));

    String path = dir.resolve(kind).toString();
    ((org.apache.spark.ml.util.MLWritable) model).write().save(path);
    Model<?> loaded = load(kind, path);
    assertArrayEquals(NAMES, names(loaded));

    Dataset<Row> test = assembled(table(20, 2), NAMES);
    double[][] before = output(model, test);
    double[][] after = output(loaded, test);
    for (int i = 0; i < before.length; i++) {
      assertArrayEquals(before[i], after[i], 0.0, "row " + i);
    }
    // The same vectors without names: scored by position, as before.
    double[][] positional = output(loaded, unnamed(test));
    for (int i = 0; i < before.length; i++) {
      assertArrayEquals(before[i], positional[i], 0.0, "row " + i);
    }

    // Another order of the same columns: refused with both lists, naming the column.
    Dataset<Row> permuted = assembled(table(20, 2), "x3", "x1", "x2");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> loaded.transform(permuted));
    String m = e.getMessage();
    assertTrue(m.contains("'features'"), m);
    assertTrue(m.contains("[x3, x1, x2]"), m);
    assertTrue(m.contains("[x1, x2, x3]"), m);
    assertFalse(m.contains("\n"), m);
    assertThrows(IllegalArgumentException.class, () -> loaded.transformSchema(permuted.schema()));

    // Other names: refused too.
    Dataset<Row> renamed =
        assembled(
            table(20, 2).withColumnRenamed("x2", "y2").withColumnRenamed("x3", "y3"),
            "x1",
            "y2",
            "y3");
    IllegalArgumentException other =
        assertThrows(IllegalArgumentException.class, () -> loaded.transform(renamed));
    assertTrue(other.getMessage().contains("[x1, y2, y3]"), other.getMessage());
  }

  @Test
  void updateKeepsTheNamesAndRefusesOtherNames() {
    NystromKernelPCAModel model =
        (NystromKernelPCAModel) fit("nystrom", assembled(table(80, 1), NAMES));
    NystromKernelPCAModel updated = model.update(assembled(table(30, 4), NAMES));
    assertArrayEquals(NAMES, updated.featureNames());
    assertEquals(110, updated.numRows());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.update(assembled(table(30, 4), "x2", "x1", "x3")));
    assertTrue(e.getMessage().contains("[x2, x1, x3]"), e.getMessage());

    RandomFeatureKernelPCAModel random =
        (RandomFeatureKernelPCAModel) fit("random", assembled(table(80, 1), NAMES));
    assertArrayEquals(NAMES, random.update(assembled(table(30, 4), NAMES)).featureNames());
    assertThrows(
        IllegalArgumentException.class,
        () -> random.update(assembled(table(30, 4), "x3", "x2", "x1")));
  }

  /** Landmarks taken from a named model are rows of its features: the fit's names must match. */
  @Test
  void landmarksFromANamedModelNeedTheSameNames() {
    NystromKernelPCAModel model =
        (NystromKernelPCAModel) fit("nystrom", assembled(table(80, 1), NAMES));
    NystromKernelPCA estimator = new NystromKernelPCA().setK(2).setLandmarksFrom(model);
    assertArrayEquals(NAMES, estimator.landmarkFeatureNames());
    assertArrayEquals(NAMES, estimator.fit(assembled(table(40, 5), NAMES)).featureNames());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> estimator.fit(assembled(table(40, 5), "x3", "x1", "x2")));
    assertTrue(e.getMessage().contains("[x3, x1, x2]"), e.getMessage());
    assertTrue(e.getMessage().contains("setLandmarksFrom"), e.getMessage());
  }

  @Test
  void aColumnWithoutNamesFitsAModelWithoutNames() {
    NystromKernelPCAModel model =
        (NystromKernelPCAModel) fit("nystrom", unnamed(assembled(table(80, 1), NAMES)));
    assertFalse(model.hasFeatureNames());
    assertEquals(0, model.featureNames().length);
    // Names can be attached afterwards, d of them.
    assertArrayEquals(NAMES, model.setFeatureNames(NAMES).featureNames());
    assertThrows(IllegalArgumentException.class, () -> model.setFeatureNames("a", "b"));
  }

  /**
   * A model saved before names were recorded (a fixture) loads without names and scores a named
   * column by position, as it did, with one warning however often it scores.
   */
  @Test
  void anOlderModelScoresANamedColumnByPositionWithOneWarning() throws Exception {
    Path fixture = SavedModelCompatibilityTest.fixture("format2-spark-4.1", "nystrom-rbf-centered");
    NystromKernelPCAModel model = NystromKernelPCAModel.load(fixture.resolve("model").toString());
    assertFalse(model.hasFeatureNames());
    Dataset<Row> rows = io.github.sparkkpca.ml.fixtures.ModelFixtures.heldOut();
    String[] five = {"a", "b", "c", "d", "e"};
    Dataset<Row> named =
        rows.withColumn(
            "features",
            col("features")
                .as(
                    "features",
                    new AttributeGroup("features", attributes(five)).toStructField().metadata()));
    assertArrayEquals(five, FeatureNames.of(named.schema(), "features"));

    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    AbstractAppender capture =
        new AbstractAppender("capture-names", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            warnings.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
          }
        };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(AbstractKernelPCAModel.class);
    logger.addAppender(capture);
    double[][] scored;
    try {
      scored = LocalSpark.collect(model.transform(named), "kpca");
      model.transform(named).count();
    } finally {
      logger.removeAppender(capture);
      capture.stop();
    }
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("WARN "), warnings.get(0));
    assertTrue(warnings.get(0).contains("no feature names"), warnings.get(0));
    double[][] plain = LocalSpark.collect(model.transform(rows), "kpca");
    for (int i = 0; i < plain.length; i++) {
      assertArrayEquals(plain[i], scored[i], 0.0, "row " + i);
    }
    SavedModelCompatibilityTest.assertScoresAsRecorded(model, fixture);
  }

  private static org.apache.spark.ml.attribute.Attribute[] attributes(String[] names) {
    org.apache.spark.ml.attribute.Attribute[] a =
        new org.apache.spark.ml.attribute.Attribute[names.length];
    for (int i = 0; i < names.length; i++) {
      a[i] = org.apache.spark.ml.attribute.NumericAttribute.defaultAttr().withName(names[i]);
    }
    return a;
  }

  /** Names in a saved model's metadata that do not fit d are refused on load, naming the path. */
  @Test
  void savedNamesOfAnotherCountAreRefused() {
    com.fasterxml.jackson.databind.node.ObjectNode metadata =
        FeatureNames.metadata(new String[] {"a", "b"});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FeatureNames.read(metadata, 3, "Cannot load M from 'p': "));
    assertTrue(
        e.getMessage().contains("'p'") && e.getMessage().contains("2 names"), e.getMessage());
    assertArrayEquals(
        new String[0], FeatureNames.read(FeatureNames.metadata(new String[0]), 3, ""));
  }
}
