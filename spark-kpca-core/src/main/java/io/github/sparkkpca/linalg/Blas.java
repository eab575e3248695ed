package io.github.sparkkpca.linalg;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.lapack.LAPACK;

/**
 * Access to BLAS and LAPACK through {@code dev.ludovic.netlib}, which loads the system's native
 * library (OpenBLAS, via {@code libblas.so.3}/{@code liblapack.so.3}) when installed and falls back
 * to a pure-Java implementation otherwise. All matrices handed to these routines are column-major.
 */
public final class Blas {

  private Blas() {}

  /** The fastest available BLAS (native when installed). */
  public static BLAS blas() {
    return BLAS.getInstance();
  }

  /** The fastest available LAPACK (native when installed). */
  public static LAPACK lapack() {
    return LAPACK.getInstance();
  }

  /**
   * The implementation classes in use, e.g. {@code JNIBLAS/JNILAPACK} when native OpenBLAS is
   * loaded.
   */
  public static String implementation() {
    return blas().getClass().getSimpleName() + "/" + lapack().getClass().getSimpleName();
  }
}
