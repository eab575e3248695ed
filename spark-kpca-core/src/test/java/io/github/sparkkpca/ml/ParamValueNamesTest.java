package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.landmarks.LandmarkSampling;
import io.github.sparkkpca.landmarks.ResidualGrowth;
import io.github.sparkkpca.pca.Preimage;
import io.github.sparkkpca.pca.SpectrumExtent;
import org.junit.jupiter.api.Test;

/**
 * The values of the enum-valued params, derived from their constants: the same strings the params
 * accepted and saved models recorded when they were written out by hand, and each parses back.
 */
class ParamValueNamesTest {

  @Test
  void namesAreTheRecordedParamValues() {
    assertArrayEquals(
        new String[] {"auto", "whitened", "gram", "gram-checked", "top-k"}, StatisticsRoute.NAMES);
    assertArrayEquals(
        new String[] {"uniform", "leverage", "kmeans", "residual"}, LandmarkSampling.NAMES);
    assertArrayEquals(new String[] {"tolerance", "f"}, ResidualGrowth.Test.NAMES);
    assertArrayEquals(new String[] {"fixed-point", "ridge"}, Preimage.Method.NAMES);
    assertArrayEquals(new String[] {"leading", "full"}, SpectrumExtent.NAMES);
  }

  @Test
  void everyNameParsesBackToItsConstant() {
    for (StatisticsRoute r : StatisticsRoute.values()) {
      assertEquals(r, StatisticsRoute.parse(r.paramName()));
    }
    for (LandmarkSampling s : LandmarkSampling.values()) {
      assertEquals(s, LandmarkSampling.parse(s.paramName()));
    }
    for (ResidualGrowth.Test t : ResidualGrowth.Test.values()) {
      assertEquals(t, ResidualGrowth.Test.parse(t.paramName()));
    }
    for (Preimage.Method m : Preimage.Method.values()) {
      assertEquals(m, Preimage.Method.parse(m.paramName()));
    }
    for (SpectrumExtent e : SpectrumExtent.values()) {
      assertEquals(e, SpectrumExtent.parse(e.paramName()));
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StatisticsRoute.parse("gram_checked"));
    assertEquals(
        "Unknown statistics route 'gram_checked'; expected one of [auto, whitened, gram,"
            + " gram-checked, top-k]",
        e.getMessage());
  }
}
