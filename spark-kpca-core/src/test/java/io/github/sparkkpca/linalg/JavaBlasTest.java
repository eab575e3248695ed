package io.github.sparkkpca.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ludovic.netlib.blas.JavaBLAS;
import org.junit.jupiter.api.Test;

/**
 * The pure-Java BLAS that {@code dev.ludovic.netlib} falls back to when native OpenBLAS is not
 * installed. On Java 16+ it is {@code VectorBLAS} (SIMD through the Vector API) only when the JVM
 * resolves the incubator module {@code jdk.incubator.vector}; otherwise it is the scalar {@code
 * F2jBLAS}, several times slower on the GEMMs of a fit. The build's test JVMs and {@code
 * bin/spark-kpca} add the module (root pom property {@code java.vector.module}), and this test
 * fails when that flag is lost.
 */
class JavaBlasTest {

  @Test
  void javaFallbackIsTheVectorApiImplementation() {
    assertEquals(
        "dev.ludovic.netlib.blas.VectorBLAS",
        JavaBLAS.getInstance().getClass().getName(),
        "the JVM runs without --add-modules=jdk.incubator.vector, so the Java BLAS is the scalar F2J port");
  }
}
