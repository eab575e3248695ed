package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelFamilies;
import io.github.sparkkpca.streaming.StreamingKernelPCA;
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
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
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

    // Pre-images are dense d-wide vectors: refused up front with one line, before any allocation.
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.setPreimageMethod("ridge").setReconstructionCol("recon").transform(df));
    String message = refused.getMessage();
    assertTrue(
        message.startsWith("reconstructionCol 'recon': pre-images are dense vectors of d = 1048576")
            && message.contains("m = 200")
            && !message.contains("\n"),
        message);
    model.setReconstructionCol("");
  }

  /**
   * One block-sizing rule on 2^18-wide rows of at most 50 non-zeros: a sparse-path model scores in
   * blocks sized by its landmarks' stored entries (256 rows, where sizing by d gave 16; pre-images,
   * d doubles a row, keep 16), and the scores, residuals, predictions, an update and a streaming
   * fold with the automatic sizes equal those with 7-row blocks.
   */
  @Test
  void wideSparseRowsAreBlockedByTheirNonZeros(@TempDir Path dir) throws Exception {
    int d = 1 << 18;
    List<Vector> rows = sparseRows(300, d, 25, 12);
    Dataset<Row> df = LocalSpark.vectors(rows, 2);
    Dataset<Row> more = LocalSpark.vectors(sparseRows(100, d, 25, 13), 2);
    NystromKernelPCA estimator =
        new NystromKernelPCA().setKernel("cosine").setK(3).setNumLandmarks(40).setSeed(1);
    NystromKernelPCAModel auto =
        estimator.copy(ParamMap.empty()).fit(df).setResidualCol("residual");
    NystromKernelPCAModel small =
        estimator.copy(ParamMap.empty()).setBlockSize(7).fit(df).setResidualCol("residual");
    assertTrue(auto.getKernelBlockPath().startsWith("sparse:"), auto.getKernelBlockPath());
    assertEquals(16, auto.scoringBlockSize(40, d, 3), "sized by d");
    assertEquals(KernelParams.SCORING_BLOCK_ROWS, KernelPCAModelTransform.blockSize(auto, false));
    assertEquals(16, KernelPCAModelTransform.blockSize(auto, true), "pre-images are d-wide");
    assertEquals(7, KernelPCAModelTransform.blockSize(small, false));
    assertSameScores(auto, small, df, "fit and transform");
    NystromKernelPCAModel updated = small.update(more);
    assertSameScores(auto.update(more), updated, df, "update");
    // A stream folds its batches as update does: with the automatic sizes, the same variances.
    List<StreamingKernelPCA.BatchReport> reports = new ArrayList<>();
    StreamingKernelPCA streaming =
        new StreamingKernelPCA()
            .setModelDir(dir.resolve("stream").toString())
            .setEstimator(estimator.copy(ParamMap.empty()))
            .setBatchListener(reports::add);
    streaming.sink().call(df, 0L);
    streaming.sink().call(more, 1L);
    double[] streamed = reports.get(1).eigenvalues();
    double[] expected = updated.explainedVariance().toArray();
    assertEquals(expected.length, streamed.length);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], streamed[i], 1e-12 * expected[0], "streamed variance " + i);
    }

    Dataset<Row> labelled = df.withColumn("label", functions.sin(functions.col("id")));
    KernelPCARegressor regressor =
        new KernelPCARegressor().setKernel("cosine").setNumLandmarks(40).setDimension(3).setSeed(1);
    KernelPCARegressionModel autoFit = regressor.copy(ParamMap.empty()).fit(labelled);
    KernelPCARegressionModel smallFit =
        regressor.copy(ParamMap.empty()).setBlockSize(7).fit(labelled);
    assertEquals(KernelParams.SCORING_BLOCK_ROWS, KernelPCARegressionPredict.blockSize(autoFit));
    List<Row> pa = autoFit.transform(labelled).orderBy("id").select("prediction").collectAsList();
    List<Row> pb = smallFit.transform(labelled).orderBy("id").select("prediction").collectAsList();
    for (int i = 0; i < pa.size(); i++) {
      assertEquals(pb.get(i).getDouble(0), pa.get(i).getDouble(0), 1e-12, "prediction " + i);
    }
  }

  /** Eigenvalues, scores and residuals of two models of the same rows, to 1e-12 relative. */
  private static void assertSameScores(
      AbstractKernelPCAModel<?> a, AbstractKernelPCAModel<?> b, Dataset<Row> rows, String what) {
    double[] ea = a.eigenvalues().toArray();
    double[] eb = b.eigenvalues().toArray();
    assertEquals(eb.length, ea.length, what);
    for (int i = 0; i < ea.length; i++) {
      assertEquals(eb[i], ea[i], 1e-12 * eb[0], what + ": eigenvalue " + i);
    }
    a.setResidualCol("residual");
    b.setResidualCol("residual");
    List<Row> ra = a.transform(rows).orderBy("id").select("kpca", "residual").collectAsList();
    List<Row> rb = b.transform(rows).orderBy("id").select("kpca", "residual").collectAsList();
    double scale = Math.sqrt(eb[0]);
    for (int i = 0; i < ra.size(); i++) {
      double[] sa = ((Vector) ra.get(i).get(0)).toArray();
      double[] sb = ((Vector) rb.get(i).get(0)).toArray();
      for (int c = 0; c < sa.length; c++) {
        assertEquals(sb[c], sa[c], 1e-12 * scale, what + ": score " + c + " of row " + i);
      }
      assertEquals(rb.get(i).getDouble(1), ra.get(i).getDouble(1), 1e-12, what + ": residual " + i);
    }
  }

  /** The export bundle of a sparse-landmark model holds its landmarks as a CSR triple. */
  @Test
  void exportWritesSparseLandmarksAsCsr(@TempDir Path dir) throws Exception {
    List<Vector> rows = sparseRows(120, 3000, 6, 6);
    NystromKernelPCAModel model =
        estimator(new String[] {"rbf", "0.5"}, 3, 20).fit(LocalSpark.vectors(rows, 2));
    String out = dir.resolve("bundle").toString();
    io.github.sparkkpca.persistence.ModelExport.write(
        model, out, LocalSpark.spark().sparkContext().hadoopConfiguration());
    List<String> indptr = Files.readAllLines(dir.resolve("bundle/landmarks_indptr.csv"));
    List<String> indices = Files.readAllLines(dir.resolve("bundle/landmarks_indices.csv"));
    List<String> data = Files.readAllLines(dir.resolve("bundle/landmarks_data.csv"));
    assertTrue(!Files.exists(dir.resolve("bundle/landmarks.csv")));
    assertTrue(Files.readString(dir.resolve("bundle/model.json")).contains("landmarks_indptr.csv"));
    Vector[] landmarks = model.landmarkVectors();
    assertEquals(landmarks.length + 1, indptr.size());
    for (int j = 0; j < landmarks.length; j++) {
      SparseVector z = (SparseVector) landmarks[j];
      int from = Integer.parseInt(indptr.get(j));
      assertEquals(z.indices().length, Integer.parseInt(indptr.get(j + 1)) - from);
      for (int p = 0; p < z.indices().length; p++) {
        assertEquals(z.indices()[p], Integer.parseInt(indices.get(from + p)));
        assertEquals(z.values()[p], Double.parseDouble(data.get(from + p)));
      }
    }
  }

  /**
   * Exact KernelPCA on sparse rows: the support keeps the rows sparse (the sparse block path) and
   * the eigenvalues equal those of H K H / n with K computed here densely from the definition, and
   * the same rows as dense vectors give the same eigenvalues and scores, for every kernel.
   */
  @Test
  void exactKernelPcaOnSparseRowsEqualsDenseExactForEveryKernel() {
    List<Vector> rows = sparseRows(60, 400, 6, 7);
    double[][] x = dense(rows);
    Dataset<Row> sparse = LocalSpark.vectors(rows, 2);
    Dataset<Row> dense = LocalSpark.vectors(asDense(rows), 3);
    for (String[] spec : KERNELS) {
      Kernel kernel = Kernel.of(KernelFamilies.parse(spec[0]), Double.parseDouble(spec[1]), 3, 1.0);
      double[] exact = Reference.eigenvalues(Reference.center(Reference.gram(kernel, x)), x.length);
      KernelPCA e = new KernelPCA().setKernel(spec[0]).setK(5).setDegree(3).setCoef0(1.0);
      if (KernelFamilies.parse(spec[0]).usesGamma()) {
        e.setGamma(Double.parseDouble(spec[1]));
      }
      KernelPCAModel fromSparse = e.fit(sparse);
      KernelPCAModel fromDense = e.fit(dense);
      assertInstanceOf(SparseVector.class, fromSparse.landmarkVectors()[0], spec[0]);
      assertInstanceOf(
          org.apache.spark.ml.linalg.SparseMatrix.class, fromSparse.landmarks(), spec[0]);
      double[] ours = fromSparse.explainedVariance().toArray();
      double[] theirs = fromDense.explainedVariance().toArray();
      for (int i = 0; i < 5; i++) {
        assertEquals(exact[i], ours[i], 1e-12 * exact[0], spec[0] + " eigenvalue " + i);
        assertEquals(theirs[i], ours[i], 1e-12 * exact[0], spec[0] + " dense eigenvalue " + i);
      }
      double[][] sa = LocalSpark.collect(fromSparse.transform(sparse), "kpca");
      double[][] sb = LocalSpark.collect(fromDense.transform(sparse), "kpca");
      for (int c = 0; c < 5; c++) {
        assertTrue(
            Reference.maxAbsDiffUpToSign(sa, sb, c) <= 1e-9 * Math.sqrt(exact[0]),
            spec[0] + " component " + c);
      }
    }
  }

  /**
   * Rows sharing a large column (column 0 = offset in every row, 5 values N(0, 0.1²) in columns
   * 1..19, d = 2000: the sparse path), m = n, γ = 5: the eigenvalues equal exact kernel PCA, those
   * of H K H / n with K computed here by direct differences, to 1e-12 of λ₁, at 1e7 in every row
   * (removed by the centre; unshifted, the expansion of ‖x−z‖² lost 15 % of λ₁) and in three rows
   * of four (not removed by the centre: the pairs are recomputed from differences; 3 % of λ₁
   * before); and the fitted model, saved and loaded, scores bit for bit as before (the loader
   * refused such models, which its checks found inconsistent). The kernel-level test covers offsets
   * 1e4 to 1e8 at a fraction of the cost.
   */
  @Test
  void sharedLargeColumnIsExactOnTheSparsePathAndTheModelLoads(@TempDir Path dir) {
    int n = 40;
    List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
    double offset = 1e7;
    for (boolean everyRow : new boolean[] {true, false}) {
      double[][] x = Reference.sharedLargeColumn(n, 2000, offset, 5, -1, 21);
      for (int i = 0; !everyRow && i < n; i += 4) {
        x[i][0] = 0;
      }
      String what = everyRow ? "in every row" : "in three rows of four";
      List<Vector> rows = new ArrayList<>(n);
      for (double[] row : x) {
        rows.add(Vectors.dense(row).toSparse());
      }
      Dataset<Row> df = LocalSpark.vectors(rows, 2);
      double[] exact = Reference.eigenvalues(Reference.center(Reference.gram(Kernel.rbf(5), x)), n);
      NystromKernelPCA estimator = estimator(new String[] {"rbf", "5"}, 5, n);
      checks.add(
          () -> {
            NystromKernelPCAModel model = estimator.fit(df);
            assertTrue(
                model.getKernelBlockPath().startsWith("sparse:"), model.getKernelBlockPath());
            String path = dir.resolve("m" + everyRow).toString();
            model.save(path);
            NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
            assertEquals(
                model.transform(df).orderBy("id").select("kpca").collectAsList(),
                loaded.transform(df).orderBy("id").select("kpca").collectAsList(),
                what + ": scores bit for bit after a save and load");
            double[] ours = model.eigenvalues().toArray();
            for (int i = 0; i < 5; i++) {
              assertEquals(exact[i], ours[i], 1e-12 * exact[0], what + ", eigenvalue " + i);
            }
          });
    }
    org.junit.jupiter.api.Assertions.assertAll(checks);
  }

  /**
   * The reproduction of a large column in a minority of the rows, m &lt; n: 300 libsvm-like rows of
   * d = 200 with 4 values N(0, 0.01²) each and column 199 = 1e8 + N(0, 0.005²) in 15 % of them,
   * default γ (median heuristic), m = 30. The eigenvalues equal exact Nyström on the model's own
   * landmarks and γ, computed here from kernel values by direct differences: those of (1/n)
   * K_mm^{−1/2} K_mn H K_nm K_mm^{−1/2}, to 1e-10 of λ₁. Before, pairs within the 15 % had their
   * expanded distance cancel to a kernel value of 0 that was never recomputed: λ₁ was 11 % off.
   */
  @Test
  void largeColumnInAMinorityOfTheRowsGivesExactNystrom() {
    int n = 300;
    int d = 200;
    Random random = new Random(49);
    List<Vector> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      TreeMap<Integer, Double> entries = new TreeMap<>();
      while (entries.size() < 4) {
        entries.put(random.nextInt(d - 1), 0.01 * random.nextGaussian());
      }
      if (i % 20 < 3) {
        entries.put(d - 1, 1e8 + 0.005 * random.nextGaussian());
      }
      rows.add(
          Vectors.sparse(
              d,
              entries.keySet().stream().mapToInt(Integer::intValue).toArray(),
              entries.values().stream().mapToDouble(Double::doubleValue).toArray()));
    }
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setK(5)
            .setNumLandmarks(30)
            .setSeed(5)
            .fit(LocalSpark.vectors(rows, 2));
    assertTrue(model.getKernelBlockPath().startsWith("sparse:"), model.getKernelBlockPath());
    Kernel kernel = Kernel.rbf(model.getGamma());
    Vector[] z = model.landmarkVectors();
    int m = z.length;
    double[][] kmm = new double[m][m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        kmm[i][j] = kernel.apply(z[i].toArray(), z[j].toArray());
      }
    }
    // K_mm^{−1/2} from its eigendecomposition, eigenvalues above 1e-12·λ_max (the model's rcond).
    double[] flat = new double[m * m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        flat[i + j * m] = kmm[i][j];
      }
    }
    io.github.sparkkpca.linalg.SymmetricEigen eigen =
        io.github.sparkkpca.linalg.SymmetricEigen.of(flat, m);
    double[] lambda = eigen.values();
    double[] vectors = eigen.vectors();
    double[][] phi = new double[n][m];
    double[] mean = new double[m];
    for (int i = 0; i < n; i++) {
      double[] x = rows.get(i).toArray();
      double[] k = new double[m];
      for (int j = 0; j < m; j++) {
        k[j] = kernel.apply(x, z[j].toArray());
      }
      for (int c = 0; c < m; c++) {
        if (lambda[c] > 1e-12 * lambda[0]) {
          double s = 0;
          for (int j = 0; j < m; j++) {
            s += vectors[j + c * m] * k[j];
          }
          phi[i][c] = s / Math.sqrt(lambda[c]);
          mean[c] += phi[i][c] / n;
        }
      }
    }
    double[][] covariance = new double[m][m];
    for (double[] p : phi) {
      for (int a = 0; a < m; a++) {
        for (int c = 0; c < m; c++) {
          covariance[a][c] += (p[a] - mean[a]) * (p[c] - mean[c]);
        }
      }
    }
    double[] exact = Reference.eigenvalues(covariance, n);
    double[] ours = model.eigenvalues().toArray();
    for (int i = 0; i < 5; i++) {
      assertEquals(exact[i], ours[i], 1e-10 * exact[0], "eigenvalue " + i);
    }
  }

  /**
   * landmarks() returns the landmarks as stored: a row-major SparseMatrix of the non-zeros on the
   * sparse path, whose dense form holds the landmark rows.
   */
  @Test
  void landmarksAccessorKeepsSparseLandmarksSparse() {
    List<Vector> rows = sparseRows(80, 600, 5, 8);
    NystromKernelPCAModel model =
        estimator(new String[] {"cosine", "1"}, 3, 20).fit(LocalSpark.vectors(rows, 2));
    org.apache.spark.ml.linalg.Matrix z = model.landmarks();
    assertInstanceOf(org.apache.spark.ml.linalg.SparseMatrix.class, z);
    assertEquals(20, z.numRows());
    assertEquals(600, z.numCols());
    Vector[] vectors = model.landmarkVectors();
    for (int j = 0; j < 20; j++) {
      for (int t = 0; t < 600; t++) {
        assertEquals(vectors[j].apply(t), z.apply(j, t), 0.0, "landmark " + j + ", column " + t);
      }
    }
  }

  /**
   * select-k (MPRESS), captured variance and the Nyström confidence bound: the same rows as sparse
   * and as dense vectors give the same curve, k, variances and bound; the sample is held by its
   * non-zeros and its kernel matrix takes the sparse path.
   */
  @Test
  void evaluationsOfSparseRowsEqualTheDenseOnes() {
    List<Vector> rows = sparseRows(50, 500, 6, 9);
    Dataset<Row> sparse = LocalSpark.vectors(rows, 2);
    Dataset<Row> dense = LocalSpark.vectors(asDense(rows), 3);
    io.github.sparkkpca.evaluation.Mpress.Sample sample =
        io.github.sparkkpca.evaluation.Mpress.sample(
            sparse, "features", 100, java.util.OptionalLong.empty());
    assertTrue(sample.rows().isSparse(), "the sample is held by its non-zeros");
    Kernel rbf = Kernel.rbf(0.5);
    assertTrue(new io.github.sparkkpca.kernel.LandmarkKernel(rbf, sample.rows()).isSparse());
    for (String[] spec : KERNELS) {
      Kernel kernel = Kernel.of(KernelFamilies.parse(spec[0]), Double.parseDouble(spec[1]), 3, 1.0);
      io.github.sparkkpca.evaluation.Mpress.Curve a =
          io.github.sparkkpca.evaluation.Mpress.compute(
              sparse, "features", kernel, 8, 100, java.util.OptionalLong.empty());
      io.github.sparkkpca.evaluation.Mpress.Curve b =
          io.github.sparkkpca.evaluation.Mpress.compute(
              dense, "features", kernel, 8, 100, java.util.OptionalLong.empty());
      assertEquals(b.k(), a.k(), spec[0] + ": selected k");
      for (int i = 0; i < 8; i++) {
        assertEquals(
            b.mpress()[i], a.mpress()[i], 1e-10 * Math.abs(b.mpress()[i]), spec[0] + " MPRESS");
      }
    }
    for (String[] spec : new String[][] {{"rbf", "0.5"}, {"laplacian", "0.3"}}) {
      NystromKernelPCA e = estimator(spec, 3, 25).setCentered(false);
      NystromKernelPCAModel fromSparse = e.fit(sparse);
      NystromKernelPCAModel fromDense = e.fit(dense);
      assertTrue(fromSparse.getKernelBlockPath().startsWith("sparse:"), spec[0]);
      var ca = io.github.sparkkpca.evaluation.CapturedVariance.evaluate(fromSparse, sparse, 50, 1);
      var cb = io.github.sparkkpca.evaluation.CapturedVariance.evaluate(fromDense, dense, 50, 1);
      assertEquals(cb.optimalVariance(), ca.optimalVariance(), 1e-10 * cb.optimalVariance());
      assertEquals(cb.capturedVariance(), ca.capturedVariance(), 1e-10 * cb.optimalVariance());
      var ba = io.github.sparkkpca.evaluation.NystromConfidenceBound.compute(fromSparse, 0.9);
      var bb = io.github.sparkkpca.evaluation.NystromConfidenceBound.compute(fromDense, 0.9);
      assertEquals(bb.deviation(), ba.deviation(), 0.0, spec[0]);
      for (int j = 0; j < 3; j++) {
        assertEquals(
            bb.subsetEigenvalues()[j],
            ba.subsetEigenvalues()[j],
            1e-12 * bb.subsetEigenvalues()[0],
            spec[0] + " subset eigenvalue " + j);
        assertEquals(
            bb.reconstructionErrorBound()[j],
            ba.reconstructionErrorBound()[j],
            1e-10 * Math.abs(bb.reconstructionErrorBound()[j]),
            spec[0] + " bound " + j);
      }
    }
    RandomFeatureKernelPCA rf =
        new RandomFeatureKernelPCA()
            .setKernel("rbf")
            .setGamma(0.5)
            .setK(3)
            .setNumRandomFeatures(100)
            .setSeed(3);
    var ra =
        io.github.sparkkpca.evaluation.CapturedVariance.evaluate(rf.fit(sparse), sparse, 50, 1);
    var rb = io.github.sparkkpca.evaluation.CapturedVariance.evaluate(rf.fit(dense), dense, 50, 1);
    assertEquals(rb.capturedVariance(), ra.capturedVariance(), 1e-10 * rb.optimalVariance());
  }

  /**
   * Incremental growth of a sparse-landmark model: drawn and given landmarks stay sparse, and the
   * grown model equals the one grown from the same rows as dense vectors.
   */
  @Test
  void growingASparseModelEqualsGrowingTheDenseOne() {
    List<Vector> rows = sparseRows(90, 500, 6, 10);
    Dataset<Row> sparse = LocalSpark.vectors(rows, 2);
    Dataset<Row> dense = LocalSpark.vectors(asDense(rows), 3);
    NystromKernelPCA e = estimator(new String[] {"rbf", "0.5"}, 3, 15);
    var monitoring = io.github.sparkkpca.linalg.IncrementalEigen.Monitoring.defaults();
    NystromKernelPCAModel fromSparse = e.fit(sparse);
    NystromKernelPCAModel fromDense = e.fit(dense);
    var a =
        io.github.sparkkpca.streaming.IncrementalNystrom.grow(
            fromSparse, sparse, 5, 7L, monitoring);
    var b =
        io.github.sparkkpca.streaming.IncrementalNystrom.grow(fromDense, dense, 5, 7L, monitoring);
    assertEquals(20, a.model().numSupportPoints());
    compare(a.model(), b.model(), sparse, "grown by 5 drawn rows");
    for (Vector z : a.model().landmarkVectors()) {
      assertInstanceOf(SparseVector.class, z, "grown landmarks stay sparse");
    }
    Vector[] given = rows.subList(60, 64).toArray(new Vector[0]);
    var c =
        io.github.sparkkpca.streaming.IncrementalNystrom.grow(
            fromSparse, sparse, given, monitoring);
    var d =
        io.github.sparkkpca.streaming.IncrementalNystrom.grow(
            fromDense, dense, asDense(List.of(given)).toArray(new Vector[0]), monitoring);
    compare(c.model(), d.model(), sparse, "grown by 4 given rows");
    assertInstanceOf(SparseVector.class, c.model().landmarkVectors()[17]);
    assertEquals(d.drift().eigenvalueDrift(), c.drift().eigenvalueDrift(), 1e-12);
  }

  /** Residual growth on sparse rows: the same m and landmarks as on dense rows, kept sparse. */
  @Test
  void residualGrowthOnSparseRowsChoosesTheDenseM() {
    List<Vector> rows = sparseRows(120, 400, 5, 11);
    NystromKernelPCA e =
        estimator(new String[] {"cosine", "1"}, 3, 10)
            .setLandmarkSampling("residual")
            .setLandmarkTolerance(0.3)
            .setMaxLandmarks(60);
    NystromKernelPCAModel a = e.fit(LocalSpark.vectors(rows, 2));
    NystromKernelPCAModel b = e.fit(LocalSpark.vectors(asDense(rows), 3));
    assertTrue(a.numSupportPoints() > 3, "m = " + a.numSupportPoints());
    compare(a, b, LocalSpark.vectors(rows, 2), "residual growth");
    double[] ca = a.getLandmarkResidualCurve();
    double[] cb = b.getLandmarkResidualCurve();
    assertEquals(cb.length, ca.length);
    for (int i = 0; i < ca.length; i++) {
      assertEquals(cb[i], ca[i], 1e-12, "residual curve " + i);
    }
    assertInstanceOf(SparseVector.class, a.landmarkVectors()[0]);
    assertTrue(a.getKernelBlockPath().startsWith("sparse:"), a.getKernelBlockPath());
  }
}
