package org.example.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.ml.NystromKernelPCA;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's program, compiled against the installed spark-kpca-core jar: fit on local Spark, score,
 * save, load, score again. The loaded model must score bit-identically.
 */
class FitTransformSaveLoadTest {

  @TempDir Path dir;

  @Test
  void fitTransformSaveLoad() throws Exception {
    SparkSession spark =
        SparkSession.builder().master("local[2]").appName("spark-kpca-consumer").getOrCreate();
    try {
      // Two Gaussian clusters in 4 dimensions, 300 rows.
      Random random = new Random(11);
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        double centre = i % 2 == 0 ? -2.0 : 2.0;
        double[] x = new double[4];
        for (int j = 0; j < x.length; j++) {
          x[j] = centre + random.nextGaussian();
        }
        rows.add(RowFactory.create(i, Vectors.dense(x)));
      }
      StructType schema =
          new StructType()
              .add("id", DataTypes.IntegerType)
              .add("features", SQLDataTypes.VectorType());
      Dataset<Row> data = spark.createDataFrame(rows, schema);

      NystromKernelPCAModel model =
          new NystromKernelPCA().setK(2).setNumLandmarks(40).setKernel("rbf").setSeed(5L).fit(data);
      double[] ratio = model.explainedVarianceRatio().toArray();
      assertEquals(2, ratio.length);
      assertTrue(
          ratio[0] > 0.0 && ratio[0] <= 1.0 && ratio[1] <= ratio[0],
          () -> java.util.Arrays.toString(ratio));

      String path = dir.resolve("model").toString();
      model.write().overwrite().save(path);
      NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);

      List<Row> before = model.transform(data).orderBy("id").select("kpca").collectAsList();
      List<Row> after = loaded.transform(data).orderBy("id").select("kpca").collectAsList();
      assertEquals(300, before.size());
      assertEquals(300, after.size());
      for (int i = 0; i < before.size(); i++) {
        Vector expected = before.get(i).getAs(0);
        Vector actual = after.get(i).getAs(0);
        assertEquals(2, expected.size());
        assertArrayEquals(expected.toArray(), actual.toArray(), 0.0, "row " + i);
      }
      assertArrayEquals(ratio, loaded.explainedVarianceRatio().toArray(), 0.0);
    } finally {
      spark.stop();
    }
  }
}
