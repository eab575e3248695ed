package io.github.sparkkpca.examples.reproduce;

import io.github.sparkkpca.examples.data.MnistIdx;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.kernel.KernelType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A data set of {@link HallgrenReproduction}: n×d row-major points, from MNIST (pixels / 255) or
 * the seeded synthetic clusters, with the rbf kernel of its median heuristic and its rows as a
 * Spark frame.
 */
record HallgrenData(String name, double[] points, int n, int d) {

  double[] row(int i) {
    return Arrays.copyOfRange(points, i * d, (i + 1) * d);
  }

  HallgrenData subset(int[] rows) {
    double[] p = new double[rows.length * d];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(points, rows[i] * d, p, i * d, d);
    }
    return new HallgrenData(name, p, rows.length, d);
  }

  HallgrenData first(int count) {
    return new HallgrenData(name, Arrays.copyOf(points, count * d), count, d);
  }

  /** n MNIST images drawn without replacement (seed 1), pixels / 255. */
  static HallgrenData mnist(Path dir, int n) throws IOException {
    MnistIdx idx = MnistIdx.read(dir, true);
    int[] rows = new Random(1).ints(0, idx.count()).distinct().limit(n).toArray();
    int d = idx.dim();
    double[] p = new double[n * d];
    for (int i = 0; i < n; i++) {
      double[] x = idx.image(rows[i]);
      for (int t = 0; t < d; t++) {
        p[i * d + t] = x[t] / 255.0;
      }
    }
    return new HallgrenData("mnist", p, n, d);
  }

  /** Three Gaussian clusters in a random 3-D subspace of R¹⁰ plus isotropic noise, standardised. */
  static HallgrenData synthetic(int n) {
    int d = 10;
    Random random = new Random(2);
    double[][] basis = new double[3][d];
    for (double[] b : basis) {
      for (int t = 0; t < d; t++) {
        b[t] = random.nextGaussian();
      }
    }
    double[][] centres = {{0, 0, 0}, {3, 1, 0}, {-1, 3, 2}};
    double[] p = new double[n * d];
    for (int i = 0; i < n; i++) {
      double[] c = centres[i % 3];
      double[] z = {
        c[0] + 0.6 * random.nextGaussian(),
        c[1] + 0.6 * random.nextGaussian(),
        c[2] + 0.6 * random.nextGaussian()
      };
      for (int t = 0; t < d; t++) {
        p[i * d + t] =
            z[0] * basis[0][t]
                + z[1] * basis[1][t]
                + z[2] * basis[2][t]
                + 0.3 * random.nextGaussian();
      }
    }
    for (int t = 0; t < d; t++) {
      double mean = 0;
      double sq = 0;
      for (int i = 0; i < n; i++) {
        mean += p[i * d + t];
      }
      mean /= n;
      for (int i = 0; i < n; i++) {
        sq += (p[i * d + t] - mean) * (p[i * d + t] - mean);
      }
      double sd = Math.sqrt(sq / n);
      for (int i = 0; i < n; i++) {
        p[i * d + t] = (p[i * d + t] - mean) / sd;
      }
    }
    return new HallgrenData("synthetic", p, n, d);
  }

  /** The rbf kernel with the median heuristic's γ over these points. */
  Kernel rbf() {
    return Kernel.rbf(Kernel.medianHeuristicGamma(KernelType.RBF, points, n, d));
  }

  /** The points as a frame of one vector column, {@code features}, in two partitions. */
  Dataset<Row> frame(SparkSession spark) {
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rows.add(RowFactory.create(new DenseVector(row(i))));
    }
    StructType schema = new StructType().add(new AttributeGroup("features", d).toStructField());
    return spark.createDataFrame(rows, schema).repartition(2);
  }
}
