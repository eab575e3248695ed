package io.github.sparkkpca.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.feature.FeatureStatistics;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The size FitMemory expects of one serialized statistic against the size Java serialization
 * produces.
 */
class FitMemoryTest {

  @Test
  void summaryBytesMatchTheSerializedStatistics() throws Exception {
    int r = 300;
    double[] block = new double[r * 40];
    for (int i = 0; i < block.length; i++) {
      block[i] = Math.sin(i);
    }
    FeatureStatistics stats = new FeatureStatistics(r);
    stats.addBlock(block, 40, 1.0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(stats);
    }
    long expected = FitMemory.summaryBytes(r, "org.apache.spark.serializer.JavaSerializer");
    // The packed triangle and one 5-byte block header per 1024 bytes of it.
    assertEquals(4L * r * (r + 1) + 5 * ((4L * r * (r + 1) + 1023) / 1024), expected);
    assertTrue(
        bytes.size() >= expected && bytes.size() <= expected + 8L * r + 1000,
        bytes.size() + " bytes serialized, " + expected + " expected");
    assertEquals(
        8L * r * r, FitMemory.summaryBytes(r, "org.apache.spark.serializer.KryoSerializer"));
  }
}
