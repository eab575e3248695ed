import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import io.github.sparkkpca.feature.StatisticsRoute;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.linalg.BlockKrylovEigen;
import io.github.sparkkpca.linalg.Cholesky;
import io.github.sparkkpca.linalg.Inertia;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import org.apache.spark.sql.SparkSession;
import org.netlib.util.intW;

/**
 * Compares two Nyström models of the same problem (same seed, landmarks and γ), one fitted by the Gram
 * statistics route and one by the whitened route, with the error estimates an a-posteriori check of the Gram
 * route could use (docs/gram-route.md, "An a-posteriori check"). Per component i:
 *
 * <ul>
 *   <li>measured: |λ_i^gram − λ_i^whitened| / λ_1, max |ΔP| over the projector column (landmark weights α_i)
 *       and max |Δscore| over the landmarks (which are training rows);</li>
 *   <li>normwise (rigorous given ‖E‖₂ ≤ η‖S‖₂): the residual ρ_i = ‖W‖₂ η ‖S‖₂ ‖α_i‖ of the Gram route's
 *       eigenpair against the exact C, its first-order eigenvalue term σ_i = η‖S‖₂‖α_i‖², the gap δ_i and
 *       the angle bound ρ_i/δ_i (Davis–Kahan), beside the whitened route's a-priori angle bound
 *       2η√κ·λ_1/δ_i;</li>
 *   <li>probabilistic (independent rounding errors of the entries, |E_jl| ≲ η s_j s_l with s_j² = S_jj):
 *       ρ_i ≈ √2 η ‖diag(s)W‖_F ‖diag(s)α_i‖, σ_i ≈ √2 η ‖diag(s)α_i‖², the angle ρ_i/δ_i and the
 *       eigenvalue error σ_i + ρ_i²/δ_i;</li>
 *   <li>the probabilistic RMS score error over the training rows, weighting the residual's directions by the
 *       variance of C along them: SE_i² ≈ Σ_{j≤k, j≠i} λ_j (ε_ji/(λ_i − λ_j))² + λ_{k+1} (ρ_i/(λ_i − λ_{k+1}))²
 *       with ε_ji ≈ √2 η ‖diag(s)α_j‖ ‖diag(s)α_i‖ (first-order perturbation; the directions beyond k
 *       bounded by the largest weight λ/(λ_i − λ)² among them, at λ_{k+1}).</li>
 * </ul>
 *
 * Run with the project's classpath (see run.sh): {@code java -cp CP RouteErrorProbe.java GRAM_MODEL
 * WHITENED_MODEL N}.
 */
public class RouteErrorProbe {
  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[1]").appName("route-error-probe").getOrCreate();
    NystromKernelPCAModel gram = NystromKernelPCAModel.load(args[0]);
    NystromKernelPCAModel whitened = NystromKernelPCAModel.load(args[1]);
    long n = Long.parseLong(args[2]);
    double[] lg = gram.eigenvalues().toArray();
    double[] lw = whitened.eigenvalues().toArray();
    int k = gram.numComponents();
    int m = gram.numSupportPoints();
    double[] pg = gram.projector().toArray();
    double[] pw = whitened.projector().toArray();
    double[] og = gram.offset().toArray();
    double[] ow = whitened.offset().toArray();
    double[] z = gram.landmarks().transpose().toArray(); // row-major m×d
    int d = z.length / m;
    int blockSize = gram.effectiveBlockSize(m, d, m);
    double[] sq = new double[m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < d; j++) {
        sq[i] += z[i * d + j] * z[i * d + j];
      }
    }
    double[] kmm = new double[m * m];
    Kernel.rbf(gram.getGamma()).gram(z, sq, m, d, kmm);
    double lambdaK = Inertia.largestEigenvalue(kmm, m, 200);
    double kappa = gram.getLandmarkConditionEstimate();
    double eta = StatisticsRoute.accumulationError(m, blockSize, n);
    // S = Rᵀ C R with K = RᵀR and C the whitened model's feature covariance; s_j² = S_jj.
    double[] r = kmm.clone();
    LAPACK.getInstance().dpotrf("U", m, r, m, new intW(0));
    for (int j = 0; j < m; j++) {
      for (int i = j + 1; i < m; i++) {
        r[i + j * m] = 0;
      }
    }
    double[] c = whitened.statistics().covariance(true);
    double[] cr = new double[m * m];
    BLAS.getInstance().dgemm("N", "N", m, m, m, 1.0, c, m, r, m, 0.0, cr, m);
    double[] s2 = new double[m];
    double traceS = 0;
    for (int j = 0; j < m; j++) {
      double t = 0;
      for (int p = 0; p <= j; p++) {
        t += r[p + j * m] * cr[p + j * m];
      }
      s2[j] = t;
      traceS += t;
    }
    double[] w = Cholesky.inverseUpperFactor(kmm.clone(), m);
    double weighted = 0;
    for (int p = 0; p < m; p++) {
      for (int j = 0; j <= p; j++) {
        weighted += s2[j] * w[j + p * m] * w[j + p * m];
      }
    }
    weighted = Math.sqrt(weighted);
    double normS = lambdaK * lg[0];
    double[] leading = BlockKrylovEigen.leading(c.clone(), m, k + 1).eigen().values().clone();
    java.util.Arrays.sort(leading);
    double nextEigenvalue = leading[leading.length - k - 1]; // λ_{k+1}
    double[] weightedAlpha = new double[k];
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < m; j++) {
        weightedAlpha[i] += s2[j] * pg[j + i * m] * pg[j + i * m];
      }
      weightedAlpha[i] = Math.sqrt(weightedAlpha[i]);
    }
    System.out.printf("m = %d, n = %d, k = %d, b = %d: cond(K_mm) = %.3g, lambda_1(K_mm) = %.4g, eta = %.3g, "
        + "lambda_1(C) = %.5g, lambda_k+1(C) = %.5g, tr S = %.4g, ||diag(s) W||_F = %.4g; routes %s / %s%n", m, n, k,
        blockSize, kappa, lambdaK, eta, lg[0], nextEigenvalue, traceS, weighted, gram.getStatisticsRouteTaken(), whitened.getStatisticsRouteTaken());
    System.out.println("i,lambda_i/lambda_1,gap/lambda_1,measured_dlambda/lambda_1,measured_max_dP,max_abs_P,"
        + "measured_max_dscore,normwise_rho/lambda_1,normwise_sigma/lambda_1,normwise_angle,whitened_apriori_angle,"
        + "prob_rho/lambda_1,prob_angle,prob_dlambda/lambda_1,prob_score_rms");
    double[] kernelColumn = new double[m];
    for (int i = 0; i < k; i++) {
      double alphaSq = 0;
      double weightedAlphaSq = 0;
      double maxDp = 0;
      double maxP = 0;
      for (int j = 0; j < m; j++) {
        double a = pg[j + i * m];
        alphaSq += a * a;
        weightedAlphaSq += s2[j] * a * a;
        maxDp = Math.max(maxDp, Math.abs(a - pw[j + i * m]));
        maxP = Math.max(maxP, Math.abs(pw[j + i * m]));
      }
      double maxDscore = 0;
      for (int x = 0; x < m; x++) {
        System.arraycopy(kmm, x * m, kernelColumn, 0, m);
        double t = -(og[i] - ow[i]);
        for (int j = 0; j < m; j++) {
          t += (pg[j + i * m] - pw[j + i * m]) * kernelColumn[j];
        }
        maxDscore = Math.max(maxDscore, Math.abs(t));
      }
      double gap = Double.MAX_VALUE;
      if (i > 0) {
        gap = Math.min(gap, lg[i - 1] - lg[i]);
      }
      if (i + 1 < lg.length) {
        gap = Math.min(gap, lg[i] - lg[i + 1]);
      }
      double rho = Math.sqrt(kappa / lambdaK) * eta * normS * Math.sqrt(alphaSq);
      double sigma = eta * normS * alphaSq;
      double whitenedAngle = 2 * eta * Math.sqrt(kappa) * lg[0] / gap;
      double rhoProb = Math.sqrt(2) * eta * weighted * Math.sqrt(weightedAlphaSq);
      double sigmaProb = Math.sqrt(2) * eta * weightedAlphaSq;
      double scoreVariance = nextEigenvalue * Math.pow(rhoProb / (lg[i] - nextEigenvalue), 2);
      for (int j = 0; j < k; j++) {
        if (j != i) {
          double coupling = Math.sqrt(2) * eta * weightedAlpha[j] * weightedAlpha[i];
          scoreVariance += lg[j] * Math.pow(coupling / (lg[i] - lg[j]), 2);
        }
      }
      System.out.printf("%d,%.5g,%.3g,%.2g,%.2g,%.3g,%.2g,%.2g,%.2g,%.2g,%.2g,%.2g,%.2g,%.2g,%.2g%n", i + 1,
          lg[i] / lg[0], gap / lg[0], Math.abs(lg[i] - lw[i]) / lg[0], maxDp, maxP, maxDscore, rho / lg[0],
          sigma / lg[0], rho / gap, whitenedAngle, rhoProb / lg[0], rhoProb / gap,
          (sigmaProb + rhoProb * rhoProb / gap) / lg[0], Math.sqrt(scoreVariance));
    }
    spark.stop();
  }
}
