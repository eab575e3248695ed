package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.evaluation.ReconstructionErrorEvaluator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.junit.jupiter.api.Test;

/**
 * Every validated Param refuses a bad value when it is set, with a message that names the Param and
 * the valid range or choices, and every Param without a rule accepts anything on purpose.
 */
class ParamRuleTest {

  /** The stages whose Params are checked (all that have validated Params). */
  private static List<Params> stages() {
    return List.of(
        new NystromKernelPCA(),
        new RandomFeatureKernelPCA(),
        new KernelPCA(),
        new KernelPCARegressor(),
        new RelevantDimensionEstimator(),
        new ReconstructionErrorEvaluator());
  }

  /** Params that take any value of their type: columns, seeds, flags and fit outputs. */
  private static final Set<String> UNCHECKED =
      Set.of(
          "inputCol",
          "outputCol",
          "residualCol",
          "reconstructionCol",
          "preimageErrorCol",
          "featuresCol",
          "labelCol",
          "predictionCol",
          "seed",
          "centered",
          "fitIntercept",
          "landmarkResidualCurve",
          "statisticsRouteTaken",
          "statisticsRouteCheck",
          "landmarkConditionEstimate",
          "kernelBlockPath",
          "kernelDegenerate");

  /** The exact refusal of one value per validated Param. */
  private static final Map<String, Object[]> EXPECTED =
      Map.ofEntries(
          Map.entry("k", new Object[] {0, "k must be > 0; got 0"}),
          Map.entry("kernel", new Object[] {"foo", "kernel must be one of rbf, gaussian, "}),
          Map.entry(
              "gamma", new Object[] {Double.POSITIVE_INFINITY, "gamma must be finite and > 0"}),
          Map.entry("degree", new Object[] {0, "degree must be >= 1; got 0"}),
          Map.entry("coef0", new Object[] {Double.NaN, "coef0 must be finite; got NaN"}),
          Map.entry("blockSize", new Object[] {-1, "blockSize must be >= 0; got -1"}),
          Map.entry("rcond", new Object[] {1.0, "rcond must be in [0, 1); got 1.0"}),
          Map.entry(
              "numLandmarks",
              new Object[] {
                // [1, 46340] for the regressors (m×m routes), [1, 2^20] for NystromKernelPCA.
                0, "numLandmarks must be in [1, "
              }),
          Map.entry(
              "landmarkSampling",
              new Object[] {
                "random",
                "landmarkSampling must be one of uniform, leverage, kmeans, residual; got random"
              }),
          Map.entry(
              "leverageRegularization",
              new Object[] {
                Double.POSITIVE_INFINITY,
                "leverageRegularization must be finite and > 0; got Infinity"
              }),
          Map.entry("kmeansMaxIter", new Object[] {0, "kmeansMaxIter must be >= 1; got 0"}),
          Map.entry("topKMaxPasses", new Object[] {0, "topKMaxPasses must be >= 1; got 0"}),
          Map.entry(
              "topKTolerance", new Object[] {1.0, "topKTolerance must be in (0, 1); got 1.0"}),
          Map.entry(
              "landmarkTolerance",
              new Object[] {0.0, "landmarkTolerance must be in (0, 1); got 0.0"}),
          Map.entry("maxLandmarks", new Object[] {0, "maxLandmarks must be in [1, 46340] "}),
          Map.entry("landmarkProbeSize", new Object[] {1, "landmarkProbeSize must be >= 2; got 1"}),
          Map.entry(
              "landmarkTest",
              new Object[] {"t", "landmarkTest must be one of tolerance, f; got t"}),
          Map.entry(
              "landmarkAlpha",
              new Object[] {Double.NaN, "landmarkAlpha must be in (0, 1); got NaN"}),
          Map.entry(
              "statisticsRoute",
              new Object[] {
                "fast",
                "statisticsRoute must be one of auto, whitened, gram, gram-checked, top-k; got fast"
              }),
          Map.entry("numRandomFeatures", new Object[] {0, "numRandomFeatures must be > 0; got 0"}),
          Map.entry(
              "featureScale",
              new Object[] {Double.POSITIVE_INFINITY, "featureScale must be finite and > 0"}),
          Map.entry("maxRows", new Object[] {0, "maxRows must be > 0; got 0"}),
          Map.entry(
              "preimageMethod",
              new Object[] {
                "newton", "preimageMethod must be one of fixed-point, ridge; got newton"
              }),
          Map.entry("preimageMaxIter", new Object[] {0, "preimageMaxIter must be >= 1; got 0"}),
          Map.entry(
              "preimageRidge", new Object[] {0.0, "preimageRidge must be finite and > 0; got 0.0"}),
          Map.entry(
              "spectrum", new Object[] {"all", "spectrum must be one of leading, full; got all"}),
          Map.entry("dimension", new Object[] {0, "dimension must be >= 1; got 0"}),
          Map.entry("maxDimension", new Object[] {-1, "maxDimension must be >= 0; got -1"}),
          Map.entry(
              "labelMode",
              new Object[] {
                "ordinal", "labelMode must be one of auto, real, binary, multiclass; got ordinal"
              }),
          Map.entry(
              "gammaGrid",
              new Object[] {
                new double[] {1.0, Double.POSITIVE_INFINITY},
                "gammaGrid must be a non-empty list of finite values > 0; got [1.0, Infinity]"
              }),
          Map.entry(
              "metricName",
              new Object[] {
                "mse",
                "metricName must be one of featureSpaceResidual, inputSpaceError,"
                    + " relativeInputSpaceError; got mse"
              }));

  @Test
  void everyValidatedParamNamesItsRangeWhenSet() {
    List<String> checked = new ArrayList<>();
    for (Params stage : stages()) {
      for (Param<?> param : stage.params()) {
        String name = param.name();
        if (UNCHECKED.contains(name)) {
          assertFalse(
              param.isValid() instanceof ParamRule, name + " has a rule: list it in EXPECTED");
          continue;
        }
        assertTrue(param.isValid() instanceof ParamRule, stage.uid() + "." + name + " has no rule");
        Object[] expected = EXPECTED.get(name);
        assertTrue(expected != null, "no expected refusal for " + name);
        @SuppressWarnings("unchecked")
        Param<Object> p = (Param<Object>) param;
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () -> stage.set(p, expected[0]),
                stage.uid() + "." + name);
        assertTrue(
            e.getMessage().startsWith((String) expected[1]),
            name + ": " + e.getMessage() + " should start with " + expected[1]);
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(stage.isSet(p), name + " stays unset after a refusal");
        checked.add(name);
      }
    }
    assertTrue(checked.containsAll(EXPECTED.keySet()), "every expected Param was checked");
  }

  @Test
  void paramsWithoutRulesTakeAnyValueOfTheirType() {
    for (Params stage : stages()) {
      for (Param<?> param : stage.params()) {
        if (param.isValid() instanceof ParamRule) {
          continue;
        }
        Object anything =
            param instanceof IntParam
                ? (Object) Integer.MIN_VALUE
                : param instanceof LongParam
                    ? (Object) Long.MIN_VALUE
                    : param instanceof DoubleParam
                        ? (Object) Double.NaN
                        : param instanceof BooleanParam
                            ? (Object) Boolean.FALSE
                            : param instanceof DoubleArrayParam ? new double[0] : "";
        @SuppressWarnings("unchecked")
        scala.Function1<Object, Object> valid = (scala.Function1<Object, Object>) param.isValid();
        assertEquals(Boolean.TRUE, valid.apply(anything), param.name() + " has a hidden rule");
      }
    }
  }

  @Test
  void kernelChoicesComeFromTheRegisteredFamilies() {
    NystromKernelPCA kpca = new NystromKernelPCA();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> kpca.set(kpca.kernel(), "foo"));
    assertEquals(
        "kernel must be one of "
            + String.join(", ", io.github.sparkkpca.kernel.KernelFamilies.names())
            + "; got foo",
        e.getMessage());
    assertTrue(e.getMessage().startsWith("kernel must be one of rbf, gaussian, "), e.getMessage());
    // through the setters, and aliases in any case still pass
    assertThrows(IllegalArgumentException.class, () -> kpca.setGamma(Double.POSITIVE_INFINITY));
    assertEquals("laplacian", kpca.setKernel("Laplacian").getKernel());
    assertEquals(0.5, kpca.setGamma(0.5).getGamma());
  }
}
