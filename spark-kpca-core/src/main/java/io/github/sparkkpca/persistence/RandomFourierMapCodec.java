package io.github.sparkkpca.persistence;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.feature.RandomFourierFeatureMap;
import io.github.sparkkpca.kernel.Kernel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The random Fourier map on disk: {@code data/frequencies}, one row per feature j = 0..D−1 with ω_j
 * (d values) and the phase b_j. The drawn values themselves are stored, not the seed, so a loaded
 * model scores exactly as the saved one whatever random generator the reading library has.
 */
final class RandomFourierMapCodec implements FeatureMapCodec {

  private static final StructType FREQUENCIES =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("frequency", SQLDataTypes.VectorType(), false)
          .add("phase", DataTypes.DoubleType, false);

  @Override
  public void write(FeatureMap featureMap, String dataDir, SparkSession spark) {
    RandomFourierFeatureMap map = (RandomFourierFeatureMap) featureMap;
    int numFeatures = map.numFeatures();
    int d = map.inputDim();
    double[] omega = ModelChecks.Finite.require(map.frequencies(), "the random frequencies");
    double[] phases = ModelChecks.Finite.require(map.phases(), "the random phases");
    List<Row> rows = new ArrayList<>(numFeatures);
    for (int j = 0; j < numFeatures; j++) {
      rows.add(
          RowFactory.create(
              j, new DenseVector(Arrays.copyOfRange(omega, j * d, (j + 1) * d)), phases[j]));
    }
    ModelTables.write(rows, FREQUENCIES, dataDir + "/frequencies", spark);
  }

  @Override
  public FeatureMap read(String dataDir, SparkSession spark, Kernel kernel, int dim) {
    List<Row> rows = ModelTables.read(spark, dataDir + "/frequencies", FREQUENCIES, "");
    int numFeatures = rows.size();
    if (numFeatures == 0) {
      throw new IllegalArgumentException("data/frequencies holds no random feature");
    }
    ModelChecks.Sizes.vectors(
        rows, 1, dim, "numFeatures", "data/frequencies", "values in its frequency");
    double[] omega = new double[Math.multiplyExact(numFeatures, dim)];
    double[] phases = new double[numFeatures];
    boolean[] seen = new boolean[numFeatures];
    for (Row row : rows) {
      int j = row.getInt(0);
      Vector frequency = (Vector) row.get(1);
      if (j < 0 || j >= numFeatures || seen[j] || frequency.size() != dim) {
        throw new IllegalArgumentException(
            "data/frequencies row "
                + j
                + " is inconsistent with D = "
                + numFeatures
                + ", d = "
                + dim);
      }
      seen[j] = true;
      System.arraycopy(
          ModelChecks.Finite.require(
              frequency.toArray(), "data/frequencies row " + j + ": the frequency"),
          0,
          omega,
          j * dim,
          dim);
      phases[j] =
          ModelChecks.Finite.require(
              new double[] {row.getDouble(2)}, "data/frequencies row " + j + ": the phase")[0];
    }
    return RandomFourierFeatureMap.of(kernel, omega, phases, dim);
  }
}
