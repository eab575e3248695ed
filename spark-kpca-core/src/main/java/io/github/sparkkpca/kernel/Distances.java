package io.github.sparkkpca.kernel;

/** Inner products and distances of two vectors, for the direct evaluation of a kernel. */
public final class Distances {

  private Distances() {}

  /** ⟨x, y⟩. */
  public static double dot(double[] x, double[] y) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += x[i] * y[i];
    }
    return s;
  }

  /** ‖x − y‖², summed from coordinate differences. */
  public static double squaredEuclidean(double[] x, double[] y) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      double diff = x[i] - y[i];
      s += diff * diff;
    }
    return s;
  }

  /** ‖x − y‖₁. */
  public static double l1(double[] x, double[] y) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += Math.abs(x[i] - y[i]);
    }
    return s;
  }
}
