package io.github.sparkkpca.examples.quickstart;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The README's Java quick start, verbatim, so a test runs exactly what the README shows. */
public final class JavaQuickStart {

  private JavaQuickStart() {}

  /** Fits on {@code train}, scores {@code test}, saves to and reloads from {@code modelPath}. */
  public static Dataset<Row> run(Dataset<Row> train, Dataset<Row> test, String modelPath)
      throws IOException {
    // README: begin
    NystromKernelPCAModel model =
        new NystromKernelPCA()
            .setInputCol("features")
            .setOutputCol("kpca")
            .setK(10) // components
            .setNumLandmarks(500) // m
            .setKernel("rbf") // gamma unset: median heuristic, fixed at fit
            .setResidualCol("novelty") // optional per-row feature-space residual
            .setSeed(42)
            .fit(train);

    System.out.println(model.explainedVarianceRatio()); // Σ_i / total variance, i = 1..k
    System.out.println(model.reconstructionError()); // R(ℓ) for ℓ = 1..k
    Dataset<Row> scored = model.transform(test); // adds "kpca" (Vector, size k) and "novelty"
    model.write().overwrite().save(modelPath);
    NystromKernelPCAModel again = NystromKernelPCAModel.load(modelPath);
    // README: end
    return again
        .transform(test)
        .join(scored.select("id", "kpca").withColumnRenamed("kpca", "kpcaBeforeSave"), "id");
  }
}
