package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;

/**
 * A fitted Nyström kernel PCA: scores y(x) = Pᵀk_x − o, with k_x the kernel between x and the m
 * landmarks, P = W U_k (m×k) and o = U_kᵀφ̄ (see {@link NystromKernelPCA}).
 *
 * <p><b>Total variance.</b> Uncentred, {@link #totalVariance()} is (1/n)Σ k(x_i,x_i), exact. Centred it is
 * (1/n)Σ k(x_i,x_i) − ‖φ̄‖², where φ̄ is the mean embedding projected on H_m; since ‖φ̄‖² ≤ ‖μ‖² this is
 * an <em>upper bound</em> on the true centred variance (tight when μ ∈ H_m, e.g. m = n), so the explained
 * variance ratios are conservative and the reconstruction errors are upper bounds
 * ({@link #totalVarianceMethod()} says which).
 */
public final class NystromKernelPCAModel extends AbstractKernelPCAModel<NystromKernelPCAModel>
    implements NystromKernelPCAParams {

  private final NystromKernelPCAParams.Definitions nystromParams;

  public NystromKernelPCAModel(String uid, KernelPCASolution solution) {
    super(uid, solution);
    this.nystromParams = new NystromKernelPCAParams.Definitions(this);
    NystromKernelPCAParams.setDefaults(this);
  }

  @Override
  public NystromKernelPCAParams.Definitions nystromParams() {
    return nystromParams;
  }

  @Override
  public NystromKernelPCAModel copy(ParamMap extra) {
    NystromKernelPCAModel copied = new NystromKernelPCAModel(uid(), solution());
    return copyValues(copied, extra).setParent(parent());
  }

  public static MLReader<NystromKernelPCAModel> read() {
    return new Reader();
  }

  public static NystromKernelPCAModel load(String path) {
    return read().load(path);
  }

  private static final class Reader extends MLReader<NystromKernelPCAModel> {
    @Override
    public NystromKernelPCAModel load(String path) {
      JsonNode metadata = Persistence.loadMetadata(path, sparkSession(), NystromKernelPCAModel.class);
      String uid = metadata.get("uid").asText();
      NystromKernelPCA params = new NystromKernelPCA(uid);
      Persistence.applyParams(params, metadata, path);
      KernelPCASolution solution = Persistence.loadSolution(path, sparkSession(),
          AbstractKernelPCAModel.kernelOf(params), NystromKernelPCAModel.class.getSimpleName());
      NystromKernelPCAModel model = new NystromKernelPCAModel(uid, solution);
      Persistence.applyParams(model, metadata, path);
      return model;
    }
  }
}
