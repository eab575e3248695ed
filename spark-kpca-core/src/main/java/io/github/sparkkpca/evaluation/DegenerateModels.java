package io.github.sparkkpca.evaluation;

import io.github.sparkkpca.kernel.KernelDegeneracy;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;

/**
 * What {@link ReconstructionErrorEvaluator} has seen of degenerate models: the output columns of a
 * Nyström model whose kernel is numerically the identity or a constant on its landmarks carry the
 * fit's warning ({@link KernelDegeneracy#METADATA_KEY}), read from the schema without a job. Each
 * such model's warning is logged once; and when every dataset evaluated so far came from a
 * degenerate model (two kernels or more), one more warning says that the metrics differ by noise
 * only. A tie is not detected from the values themselves: a CrossValidator's folds give different
 * values and may run concurrently, so only the models' own flag is robust.
 */
final class DegenerateModels implements java.io.Serializable {

  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private final AtomicInteger evaluations = new AtomicInteger();
  private final AtomicInteger degenerateEvaluations = new AtomicInteger();
  private final AtomicBoolean tieWarned = new AtomicBoolean();

  /** Notes one dataset to evaluate and logs what it newly shows. */
  void note(StructType schema, String uid, Logger log) {
    evaluations.incrementAndGet();
    String kernel = null;
    String warning = null;
    for (StructField field : schema.fields()) {
      Metadata metadata = field.metadata();
      if (metadata.contains(KernelDegeneracy.METADATA_KEY)) {
        warning = metadata.getString(KernelDegeneracy.METADATA_KEY);
        kernel =
            metadata.contains(io.github.sparkkpca.ml.AbstractKernelPCAModel.RESIDUAL_KERNEL)
                ? metadata.getString(io.github.sparkkpca.ml.AbstractKernelPCAModel.RESIDUAL_KERNEL)
                : warning;
        break;
      }
    }
    if (warning == null) {
      return;
    }
    int degenerate = degenerateEvaluations.incrementAndGet();
    if (warned.add(kernel)) {
      log.warn(
          "ReconstructionErrorEvaluator {}: evaluating a model whose kernel ({}) is degenerate, its"
              + " metric says nothing about the data: {}",
          uid,
          kernel,
          warning);
    }
    if (warned.size() > 1
        && degenerate == evaluations.get()
        && tieWarned.compareAndSet(false, true)) {
      log.warn(
          "ReconstructionErrorEvaluator {}: every model evaluated so far ({} evaluations, kernels {})"
              + " was degenerate on its landmarks: their metrics differ by noise only and a"
              + " CrossValidator or TrainValidationSplit keeps whichever candidate the noise favours"
              + " (the first on a tie);"
              + " centre the gamma grid on the median heuristic (fit once with gamma unset and"
              + " read the model's gamma) and L2-normalise text rows",
          uid,
          degenerate,
          new TreeSet<>(warned));
    }
  }
}
