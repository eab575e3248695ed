/**
 * Dense linear algebra on plain column-major {@code double[]} arrays: BLAS and LAPACK access, the
 * symmetric eigensolvers (dense, block Krylov, rank-one and incremental updates), Cholesky and its
 * bordered growth, inertia counts, vectorised exp and cos, row blocks, and the driver threads that
 * split the O(m³) factorisations.
 *
 * <p>Layer 1 of the core, the lowest: imports no other package of this library and touches Spark
 * only through {@code ml.linalg.Vector}. Internal: public for the layers above and the examples, no
 * compatibility promise.
 */
package io.github.sparkkpca.linalg;
