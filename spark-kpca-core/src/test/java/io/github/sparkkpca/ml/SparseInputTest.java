package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.testing.LocalSpark;
import io.github.sparkkpca.testing.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparse rows on the sparse kernel-block path against independent dense computations: m = n equals
 * exact kernel PCA of the dense n×n kernel matrix, the same data as sparse and as dense vectors
 * give the same model, the fit does not depend on the partitioning, a saved sparse-landmark model
 * scores bit-identically and is stored sparse, and a 2^20-wide fit holds its landmarks by their
 * non-zeros.
 */
class SparseInputTest {

  /** Kernels with their parameters (γ set so that the tests do not depend on the heuristic). */
  private static final String[][] KERNELS = {
    {"rbf", "0.5"}, {"laplacian", "0.3"}, {"polynomial", "0.7"}, {"linear", "1"}, {"cosine", "1"}
  };

  /**
   * n distinct sparse rows of dimension d, about {@code perRow} non-zeros each on Zipf-like columns
   * (low columns frequent), positive TF-IDF-like weights.
   */
  static List<Vector> sparseRows(int n, int d, int perRow, long seed) {
    Random random = new Random(seed);
    List<Vector> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      TreeMap<Integer, Double> entries = new TreeMap<>();
      int count = 1 + random.nextInt(2 * perRow);
      while (entries.size() < count) {
        int t = (int) Math.min(d - 1, Math.floor(Math.pow(d, random.nextDouble())) - 1);
        entries.put(Math.max(0, t), 0.1 + random.nextDouble());
      }
      rows.add(
          Vectors.sparse(
              d,
              entries.keySet().stream().mapToInt(Integer::intValue).toArray(),
              entries.values().stream().mapToDouble(Double::doubleValue).toArray()));
    }
    return rows;
  }

  private static double[][] dense(List<Vector> rows) {
    double[][] x = new double[rows.size()][];
    for (int i = 0; i < x.length; i++) {
      x[i] = rows.get(i).toArray();
    }
    return x;
  }

  private static List<Vector> asDense(List<Vector> rows) {
    List<Vector> out = new ArrayList<>(rows.size());
    for (Vector v : rows) {
      out.add(new DenseVector(v.toArray()));
    }
    return out;
  }

  private static NystromKernelPCA estimator(String[] kernel, int k, int m) {
    NystromKernelPCA e =
        new NystromKernelPCA().setKernel(kernel[0]).setK(k).setNumLandmarks(m).setSeed(3);
    if (KernelFamilies.parse(kernel[0]).usesGamma()) {
      e.setGamma(Double.parseDouble(kernel[1]));
    }
    return e;
  }

  /**
   * m = n on sparse rows: every row a landmark, the model is exact centred kernel PCA, whose
   * eigenvalues are those of H K H / n with K computed here densely from the definition.
   */
  @Test
  void allRowsAsLandmarksIsExactKernelPCAForEveryKernel() {
    List<Vector> rows = sparseRows(80, 400, 6, 1);
    double[][] x = dense(rows);
    Dataset<Row> df = LocalSpark.vectors(rows, 3);
    for (String[] spec : KERNELS) {
      Kernel kernel = Kernel.of(KernelFamilies.parse(spec[0]), Double.parseDouble(spec[1]), 3, 1.0);
      double[] exact = Reference.eigenvalues(Reference.center(Reference.gram(kernel, x)), x.length);
      NystromKernelPCAModel model =
          estimator(spec, 5, x.length).setRcond(1e-14).setInputCol("features").fit(df);
      assertTrue(
          model.getKernelBlockPath().startsWith("sparse:"),
          spec[0] + ": " + model.getKernelBlockPath());
      double[] ours = model.eigenvalues().toArray();
      for (int i = 0; i < 5; i++) {
        assertEquals(exact[i], ours[i], 1e-12 * exact[0], spec[0] + " eigenvalue " + i);
      }
    }
  }

  /**
   * The same rows as sparse and as dense vectors: the same landmarks, eigenvalues and scores, for
   * every kernel and every landmark strategy.
   */
  @Test
  void sparseAndDenseVectorsGiveTheSameModel() {
    List<Vector> rows = sparseRows(150, 300, 5, 2);
    Dataset<Row> sparse = LocalSpark.vectors(rows, 2);
    Dataset<Row> dense = LocalSpark.vectors(asDense(rows), 2);
    String[][] kernels = {
      {"rbf", "0.5"},
      {"laplacian", "0.3"},
      {"polynomial", "0.7"},
      {"linear", "1"},
      {"cosine", "1"},
      {"sigmoid", "0.2"}
    };
    for (String[] spec : kernels) {
      for (String strategy : new String[] {"uniform", "leverage", "kmeans", "residual"}) {
        if (strategy.equals("kmeans") && !spec[0].equals("rbf")) {
          continue; // k-means centres are dense whatever the kernel: one kernel suffices
        }
        NystromKernelPCA e = estimator(spec, 3, 25).setLandmarkSampling(strategy);
        if (strategy.equals("residual")) {
          e.setMaxLandmarks(30);
        }
        compare(e.fit(sparse), e.fit(dense), sparse, spec[0] + "/" + strategy);
      }
      NystromKernelPCA supplied =
          estimator(spec, 3, 25).setLandmarks(rows.subList(0, 20).toArray(new Vector[0]));
      compare(supplied.fit(sparse), supplied.fit(dense), sparse, spec[0] + "/supplied");
    }
  }

  private static void compare(
      NystromKernelPCAModel a, NystromKernelPCAModel b, Dataset<Row> df, String what) {
    assertEquals(a.numSupportPoints(), b.numSupportPoints(), what);
    Vector[] la = a.landmarkVectors();
    Vector[] lb = b.landmarkVectors();
    for (int j = 0; j < la.length; j++) {
      assertEquals(Vectors.dense(la[j].toArray()), Vectors.dense(lb[j].toArray()), what);
    }
    double[] ea = a.eigenvalues().toArray();
    double[] eb = b.eigenvalues().toArray();
    for (int i = 0; i < ea.length; i++) {
      assertEquals(ea[i], eb[i], 1e-12 * Math.abs(ea[0]), what + " eigenvalue " + i);
    }
    double[][] sa = LocalSpark.collect(a.transform(df), "kpca");
    double[][] sb = LocalSpark.collect(b.transform(df), "kpca");
    double scale = Math.sqrt(Math.abs(ea[0]));
    for (int c = 0; c < sa[0].length; c++) {
      assertTrue(Reference.maxAbsDiffUpToSign(sa, sb, c) <= 1e-9 * scale, what + " component " + c);
    }
  }

  /** 1, 3 or 8 partitions: the same landmarks and the same spectrum. */
  @Test
  void sparseFitDoesNotDependOnPartitions() {
    List<Vector> rows = sparseRows(200, 1000, 8, 3);
    NystromKernelPCA e = estimator(new String[] {"rbf", "0.4"}, 4, 40);
    NystromKernelPCAModel one = e.fit(LocalSpark.vectors(rows, 1));
    for (int p : new int[] {3, 8}) {
      NystromKernelPCAModel other = e.fit(LocalSpark.vectors(rows, p));
      Vector[] a = one.landmarkVectors();
      Vector[] b = other.landmarkVectors();
      for (int j = 0; j < a.length; j++) {
        assertEquals(a[j], b[j], "landmark " + j + " with " + p + " partitions");
      }
      double[] ea = one.eigenvalues().toArray();
      double[] eb = other.eigenvalues().toArray();
      for (int i = 0; i < ea.length; i++) {
        assertEquals(ea[i], eb[i], 1e-13 * ea[0], p + " partitions, eigenvalue " + i);
      }
    }
  }

  /** Saved and loaded, a sparse-landmark model scores bit for bit as before; stored sparse. */
  @Test
  void savedSparseModelScoresIdenticallyAndIsStoredSparse(@TempDir Path dir) throws Exception {
    List<Vector> rows = sparseRows(150, 5000, 10, 4);
    Dataset<Row> df = LocalSpark.vectors(rows, 2);
    for (String[] spec : KERNELS) {
      NystromKernelPCAModel model = estimator(spec, 3, 30).setResidualCol("residual").fit(df);
      String path = dir.resolve(spec[0]).toString();
      model.save(path);
      NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
      assertEquals(model.getKernelBlockPath(), loaded.getKernelBlockPath());
      List<Row> before =
          model.transform(df).orderBy("id").select("kpca", "residual").collectAsList();
      List<Row> after =
          loaded.transform(df).orderBy("id").select("kpca", "residual").collectAsList();
      assertEquals(before, after, spec[0] + ": scores and residuals bit for bit");
      // Every landmark file holds sparse vectors.
      List<Path> parquet;
      try (var files = Files.walk(dir.resolve(spec[0]))) {
        parquet =
            files
                .filter(f -> f.getFileName().toString().equals("landmarks"))
                .filter(Files::isDirectory)
                .toList();
      }
      assertEquals(1, parquet.size(), spec[0] + ": one landmarks directory");
      List<Row> stored =
          LocalSpark.spark().read().parquet(parquet.get(0).toString()).collectAsList();
      assertEquals(30, stored.size());
      for (Row r : stored) {
        Object point = r.get(r.fieldIndex("point"));
        assertInstanceOf(SparseVector.class, point, spec[0] + ": landmark stored sparse");
      }
    }
  }

  /**
   * 2^20 columns, 30 non-zeros per row, 3000 rows, m = 200: dense landmarks would take 1.6 GB (and
   * the blocks 8 MB per row); the fit passes the memory check and holds its landmarks in a few
   * hundred kB.
   */
  @Test
  void wideSparseFitHoldsLandmarksByTheirNonZeros() {
    int d = 1 << 20;
    List<Vector> rows = sparseRows(3000, d, 15, 5);
    Dataset<Row> df = LocalSpark.vectors(rows, 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setKernel("cosine")
            .setK(5)
            .setNumLandmarks(200)
            .setSeed(1)
            .setResidualCol("residual")
            .fit(df);
    assertTrue(model.getKernelBlockPath().startsWith("sparse:"), model.getKernelBlockPath());
    long stored = 0;
    for (Vector v : model.landmarkVectors()) {
      assertInstanceOf(SparseVector.class, v);
      stored += ((SparseVector) v).indices().length;
    }
    assertTrue(stored < 200 * 31, "landmark entries " + stored);
    assertEquals(3000, model.transform(df).count());
    double residual =
        model
            .transform(df)
            .agg(org.apache.spark.sql.functions.min("residual"))
            .first()
            .getDouble(0);
    assertTrue(residual >= -1e-9, "residual " + residual);
  }
}
