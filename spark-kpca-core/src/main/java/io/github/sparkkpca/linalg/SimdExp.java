package io.github.sparkkpca.linalg;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Gaussian-kernel map of {@link FastExp#gaussianInPlace} as one loop over SIMD registers (the incubating
 * Vector API): the argument, the clamps, the reduction, the polynomial and the scale 2^k of one group of
 * lanes stay in registers, where the auto-vectorised form runs six loops through memory and scales lane by
 * lane (C2 does not vectorise the bit moves of 2^k).
 *
 * <p>Every lane performs the operations of {@link FastExp#exp} in the same order, each rounded once
 * (multiplies and adds, no fused multiply-add), and the clamps select the same values as {@code Math.max}
 * for finite arguments, so the results are bit-identical to the scalar and auto-vectorised forms: a model
 * scores the same rows identically whether or not its JVM resolves the module.
 *
 * <p>Only {@link FastExp} touches this class, and only after it found the module {@code jdk.incubator.vector}
 * in the boot layer: loading it elsewhere fails with a {@link LinkageError}.
 */
final class SimdExp {

  private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;

  private SimdExp() {
  }

  /** Lanes of the preferred species (8 on AVX-512, 4 on AVX2, 2 on NEON). */
  static int lanes() {
    return SPECIES.length();
  }

  /**
   * values[o + j] ← exp(max(−γ·max(s + q_j − 2·values[o + j], 0), −708)) for j &lt; n, with
   * {@code minusGamma} = −γ, s = {@code rowSqNorm} and q = {@code landmarkSqNorms}.
   */
  static void gaussianInPlace(double[] values, int offset, int n, double rowSqNorm, double[] landmarkSqNorms,
      double minusGamma) {
    int j = 0;
    int bound = SPECIES.loopBound(n);
    for (; j < bound; j += SPECIES.length()) {
      DoubleVector inner = DoubleVector.fromArray(SPECIES, values, offset + j);
      // (s + q_j) − 2⟨x, z_j⟩, rounded as the scalar expression s + q_j − 2.0 * inner is.
      DoubleVector distance = DoubleVector.fromArray(SPECIES, landmarkSqNorms, j).add(rowSqNorm).sub(inner.mul(2.0));
      // Compare-and-blend clamps (a negative distance from rounding → 0; arguments below −708 → −708): the
      // same values as Math.max for finite inputs, at a fraction of the cost of the vector max's NaN handling.
      distance = distance.blend(0.0, distance.compare(VectorOperators.LT, 0.0));
      DoubleVector a = distance.mul(minusGamma);
      a = a.blend(FastExp.MIN_ARGUMENT, a.compare(VectorOperators.LT, FastExp.MIN_ARGUMENT));
      DoubleVector t = a.mul(FastExp.LOG2E).add(FastExp.SHIFT);
      DoubleVector k = t.sub(FastExp.SHIFT);
      DoubleVector r = a.sub(k.mul(FastExp.LN2_HI)).sub(k.mul(FastExp.LN2_LO));
      DoubleVector r2 = r.mul(r);
      DoubleVector r4 = r2.mul(r2);
      DoubleVector y = r.mul(FastExp.C9).add(FastExp.C8)
          .add(r.mul(FastExp.C11).add(FastExp.C10).mul(r2))
          .add(r.mul(FastExp.C13).add(FastExp.C12).mul(r4));
      y = r.mul(FastExp.C5).add(FastExp.C4).add(r.mul(FastExp.C7).add(FastExp.C6).mul(r2)).add(y.mul(r4));
      DoubleVector p = r.add(r.mul(FastExp.C3).add(FastExp.C2).mul(r2)).add(y.mul(r4)).add(1.0);
      DoubleVector scale = t.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
      p.mul(scale).intoArray(values, offset + j);
    }
    for (; j < n; j++) {
      values[offset + j] = FastExp.exp(minusGamma * Math.max(rowSqNorm + landmarkSqNorms[j] - 2.0 * values[offset + j],
          0.0));
    }
  }
}
