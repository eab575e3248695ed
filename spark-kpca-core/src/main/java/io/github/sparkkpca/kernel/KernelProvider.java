package io.github.sparkkpca.kernel;

import java.util.List;

/**
 * A source of kernel families defined outside the library, found by {@link
 * java.util.ServiceLoader}: a class with a public no-argument constructor named in {@code
 * META-INF/services/io.github.sparkkpca.kernel.KernelProvider}. Its families join {@link
 * KernelFamilies} when that class is first used.
 */
public interface KernelProvider {

  /** The families to register (enum constants, so each stays one instance). */
  List<KernelFamily> kernels();
}
