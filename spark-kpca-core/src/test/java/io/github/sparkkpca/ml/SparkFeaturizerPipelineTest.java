package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.CountVectorizer;
import org.apache.spark.ml.feature.HashingTF;
import org.apache.spark.ml.feature.IDF;
import org.apache.spark.ml.feature.OneHotEncoder;
import org.apache.spark.ml.feature.Tokenizer;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sparse vectors of Spark's own featurizers (Tokenizer + HashingTF + IDF, CountVectorizer +
 * IDF, OneHotEncoder) feed both estimators in a Pipeline that fits, transforms, saves and loads;
 * the model equals the one fitted on the same rows as dense vectors (the featurizers' output
 * densified), to rounding.
 */
class SparkFeaturizerPipelineTest {

  private static final int N = 60;

  @TempDir Path dir;

  /** N documents of 6 to 14 words over four topics' vocabularies and a shared one. */
  private static Dataset<Row> documents() {
    Random random = new Random(8);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      int topic = i % 4;
      StringBuilder text = new StringBuilder();
      int words = 6 + random.nextInt(9);
      for (int w = 0; w < words; w++) {
        boolean shared = random.nextInt(4) == 0;
        int word = (int) Math.floor(Math.pow(random.nextDouble(), 2) * 25);
        text.append(shared ? "common" : "topic" + topic + "w").append(word).append(' ');
      }
      rows.add(RowFactory.create((long) i, text.toString().trim(), i % 3, (i * 7) % 5, i % 11));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("text", DataTypes.StringType, false)
            .add("a", DataTypes.IntegerType, false)
            .add("b", DataTypes.IntegerType, false)
            .add("c", DataTypes.IntegerType, false);
    return LocalSpark.spark().createDataFrame(rows, schema).repartition(1).coalesce(1);
  }

  /** The vectors of {@code column} ordered by id. */
  private static List<Vector> vectors(Dataset<Row> df, String column) {
    List<Vector> out = new ArrayList<>();
    for (Row row : df.orderBy("id").select(column).collectAsList()) {
      out.add((Vector) row.get(0));
    }
    return out;
  }

  /**
   * Fits featurizers + estimator as a Pipeline, checks the featurizers' output is sparse, that the
   * saved and loaded pipeline scores identically, and that the estimator alone on the densified
   * features gives the same spectrum and scores.
   */
  private void assertSparsePipelineEqualsDense(
      List<PipelineStage> featurizers,
      Estimator<? extends AbstractKernelPCAModel<?>> estimator,
      String name)
      throws IOException {
    Dataset<Row> docs = documents();
    List<PipelineStage> stages = new ArrayList<>(featurizers);
    stages.add(estimator);
    PipelineModel pipeline =
        new Pipeline().setStages(stages.toArray(new PipelineStage[0])).fit(docs);
    Dataset<Row> scored = pipeline.transform(docs);
    List<Vector> features = vectors(scored, "features");
    long sparse = features.stream().filter(v -> v instanceof SparseVector).count();
    assertEquals(N, sparse, name + ": the featurizers give sparse vectors");
    double density =
        features.stream().mapToDouble(v -> v.numNonzeros() / (double) v.size()).average().orElse(1);
    assertTrue(density < 0.2, name + ": sparse data, density " + density);
    List<Vector> scores = vectors(scored, "kpca");

    String path = dir.resolve(name).toString();
    pipeline.write().save(path);
    List<Vector> reloaded = vectors(PipelineModel.load(path).transform(docs), "kpca");
    for (int i = 0; i < N; i++) {
      assertArrayEquals(scores.get(i).toArray(), reloaded.get(i).toArray(), 0.0, name + " loaded");
    }

    AbstractKernelPCAModel<?> fitted =
        (AbstractKernelPCAModel<?>) pipeline.stages()[stages.size() - 1];
    List<Vector> dense = new ArrayList<>();
    for (Vector v : features) {
      dense.add(Vectors.dense(v.toArray()));
    }
    Dataset<Row> denseRows = LocalSpark.vectors(dense, 1);
    Model<?> denseModel = estimator.fit(denseRows);
    AbstractKernelPCAModel<?> reference = (AbstractKernelPCAModel<?>) denseModel;
    double[] lambda = reference.eigenvalues().toArray();
    assertTrue(lambda[lambda.length - 1] > 1e-8 * lambda[0], name + ": a non-trivial spectrum");
    // The scores are compared component by component, so the k + 1 leading eigenvalues must be
    // apart: a component's direction moves by about (rounding of C) / (gap to its neighbours), and
    // a nearly flat spectrum turns last-bit differences into large score differences. (γ = 0.2 on
    // these IDF rows, ‖x‖² ≈ 40 to 120, made every off-diagonal kernel value below 3e-3, K ≈ I and
    // the centred spectrum 1/n with relative gaps of 1.6e-7 between eigenvalues 3 and 4; the two
    // fits, both on the sparse kernel-block path (the path depends on the landmarks' non-zeros, not
    // their storage) and with eigenvalues equal to 1e-17 absolute, then differed by 2.3e-9 of the
    // largest score: last-bit differences divided by that gap, not the rbf expansion.)
    int k = fitted.explainedVariance().size();
    double gap = Double.POSITIVE_INFINITY;
    for (int i = 0; i < k; i++) {
      gap = Math.min(gap, (lambda[i] - lambda[i + 1]) / lambda[0]);
    }
    assertTrue(gap > 1e-3, name + ": leading eigenvalues apart, relative gap " + gap);
    assertArrayEquals(lambda, fitted.eigenvalues().toArray(), 1e-12 * lambda[0], name);
    List<Vector> denseScores = vectors(reference.transform(denseRows), "kpca");
    double worst = 0;
    double largest = 0;
    for (int i = 0; i < N; i++) {
      double[] a = denseScores.get(i).toArray();
      double[] b = scores.get(i).toArray();
      for (int j = 0; j < a.length; j++) {
        worst = Math.max(worst, Math.abs(a[j] - b[j]));
        largest = Math.max(largest, Math.abs(a[j]));
      }
    }
    assertTrue(
        worst < 1e-12 * largest,
        name + ": sparse and dense scores differ by " + worst + " (largest " + largest + ")");
  }

  private static List<PipelineStage> hashedTfIdf() {
    return List.of(
        new Tokenizer().setInputCol("text").setOutputCol("words"),
        new HashingTF().setInputCol("words").setOutputCol("tf").setNumFeatures(1 << 12),
        new IDF().setInputCol("tf").setOutputCol("features"));
  }

  private static List<PipelineStage> countedTfIdf() {
    return List.of(
        new Tokenizer().setInputCol("text").setOutputCol("words"),
        new CountVectorizer().setInputCol("words").setOutputCol("tf"),
        new IDF().setInputCol("tf").setOutputCol("features"));
  }

  private static List<PipelineStage> oneHot() {
    return List.of(
        new OneHotEncoder()
            .setInputCols(new String[] {"a", "b", "c"})
            .setOutputCols(new String[] {"a1", "b1", "c1"})
            .setDropLast(false),
        new VectorAssembler()
            .setInputCols(new String[] {"a1", "b1", "c1"})
            .setOutputCol("features"));
  }

  /**
   * γ near the median heuristic's for each input: about 0.005 for the TF-IDF rows (‖x − z‖² mostly
   * 100 to 200), 0.2 for the one-hot rows (‖x − z‖² ≤ 6).
   */
  private static NystromKernelPCA nystrom(String kernel, double gamma) {
    return new NystromKernelPCA()
        .setKernel(kernel)
        .setGamma(gamma)
        .setK(3)
        .setNumLandmarks(20)
        .setSeed(4)
        .setOutputCol("kpca");
  }

  private static RandomFeatureKernelPCA randomFeatures(double gamma) {
    return new RandomFeatureKernelPCA()
        .setGamma(gamma)
        .setK(3)
        .setNumRandomFeatures(150)
        .setSeed(4)
        .setOutputCol("kpca");
  }

  @Test
  void hashingTfIdfIntoNystrom() throws IOException {
    assertSparsePipelineEqualsDense(hashedTfIdf(), nystrom("cosine", 1), "hashed-nystrom");
  }

  @Test
  void hashingTfIdfIntoRandomFeatures() throws IOException {
    assertSparsePipelineEqualsDense(hashedTfIdf(), randomFeatures(0.005), "hashed-rff");
  }

  @Test
  void countVectorizerIntoNystromAndRandomFeatures() throws IOException {
    assertSparsePipelineEqualsDense(countedTfIdf(), nystrom("rbf", 0.005), "counted-nystrom");
    assertSparsePipelineEqualsDense(countedTfIdf(), randomFeatures(0.005), "counted-rff");
  }

  @Test
  void oneHotIntoNystromAndRandomFeatures() throws IOException {
    assertSparsePipelineEqualsDense(oneHot(), nystrom("rbf", 0.2), "onehot-nystrom");
    assertSparsePipelineEqualsDense(oneHot(), randomFeatures(0.2), "onehot-rff");
  }
}
