/**
 * Kernels: the families and their parameter names ({@link KernelType}), a kernel with its
 * parameters fixed ({@link Kernel}: k(x, y), k(x, x), the kernel block of a row block, the median
 * heuristic) and a kernel bound to landmarks ({@link LandmarkKernel}).
 *
 * <p>Layer 2: uses {@code linalg} only. Internal: public for the layers above and the examples, no
 * compatibility promise.
 */
package io.github.sparkkpca.kernel;
