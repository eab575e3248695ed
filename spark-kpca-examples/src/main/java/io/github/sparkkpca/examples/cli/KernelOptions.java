package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.kernel.KernelType;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The kernel options ({@code --kernel}, {@code --gamma}, {@code --degree}, {@code --coef0}; a
 * picocli mixin) of {@code fit}, {@code stream}, {@code select-k} and {@code rde}. The kernel names
 * come from {@link KernelNames}. A command whose help says more about an option gives it under the
 * key {@code <command path>.<option>} of the CLI's resource bundle ({@code
 * SparkKpcaCli.properties}); degree and coef0 are null when not given, so the estimator keeps its
 * own default.
 */
public final class KernelOptions {

  /** The polynomial degree when {@code --degree} is not given. */
  static final int DEFAULT_DEGREE = 3;

  /** The polynomial/sigmoid constant when {@code --coef0} is not given. */
  static final double DEFAULT_COEF0 = 1.0;

  @Option(
      names = "--kernel",
      paramLabel = "NAME",
      defaultValue = "rbf",
      completionCandidates = KernelNames.class,
      descriptionKey = "kernel",
      description = "Kernel: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  String name;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      descriptionKey = "gamma",
      description =
          "Kernel scale gamma > 0. Default: rbf/laplacian the median heuristic over the landmarks, "
              + "polynomial/sigmoid 1/d.")
  Double gamma;

  @Option(
      names = "--degree",
      paramLabel = "P",
      descriptionKey = "degree",
      description = "Polynomial degree (default 3).")
  Integer degree;

  @Option(
      names = "--coef0",
      paramLabel = "C",
      descriptionKey = "coef0",
      description = "Polynomial/sigmoid constant (default 1).")
  Double coef0;

  /** The kernel family of {@code --kernel}; a usage error of {@code spec} naming the option. */
  KernelType type(CommandSpec spec) {
    try {
      return KernelType.parse(name);
    } catch (IllegalArgumentException e) {
      throw SparkKpcaCli.usage(spec, "--kernel: " + e.getMessage());
    }
  }

  /** Checks the kernel name, gamma, degree and coef0; usage errors name the option. */
  KernelType validate(CommandSpec spec) {
    KernelType type = type(spec);
    SparkKpcaCli.require(
        spec,
        gamma == null || (gamma > 0 && Double.isFinite(gamma)),
        "--gamma must be finite and > 0, got " + gamma);
    SparkKpcaCli.require(
        spec, degree == null || degree >= 1, "--degree must be >= 1, got " + degree);
    SparkKpcaCli.require(
        spec, coef0 == null || Double.isFinite(coef0), "--coef0 must be finite, got " + coef0);
    return type;
  }

  /** {@code --degree}, or {@link #DEFAULT_DEGREE}. */
  int degreeOrDefault() {
    return degree == null ? DEFAULT_DEGREE : degree;
  }

  /** {@code --coef0}, or {@link #DEFAULT_COEF0}. */
  double coef0OrDefault() {
    return coef0 == null ? DEFAULT_COEF0 : coef0;
  }
}
