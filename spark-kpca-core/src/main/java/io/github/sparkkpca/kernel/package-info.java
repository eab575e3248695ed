/**
 * Kernels: the definition of a kernel family ({@link KernelFamily}: names, formula, parameters,
 * value, diagonal, block map, median heuristic), the built-in families ({@link KernelType}), the
 * registry every kernel name comes from ({@link KernelFamilies}, with {@link KernelProvider} for
 * kernels defined outside the library), a kernel with its parameters fixed ({@link Kernel}: k(x,
 * y), k(x, x), the kernel block of a row block, the median heuristic) and a kernel bound to
 * landmarks ({@link LandmarkKernel}).
 *
 * <p>Layer 2: uses {@code linalg} only. {@link KernelFamily}, {@link KernelFamilies} and {@link
 * KernelProvider} are the API for adding a kernel; the rest is internal: public for the layers
 * above and the examples, no compatibility promise.
 */
package io.github.sparkkpca.kernel;
