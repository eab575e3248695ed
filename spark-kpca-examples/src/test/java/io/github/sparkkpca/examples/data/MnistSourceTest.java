package io.github.sparkkpca.examples.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The IDX reader on tiny files written here (7 images of 2×3 pixels), and its error messages. */
class MnistSourceTest {

  static final int COUNT = 7;
  static final int ROWS = 2;
  static final int COLS = 3;
  static final int[] LABELS = {5, 0, 5, 9, 1, 5, 2};

  @TempDir Path dir;

  static int pixel(int image, int p) {
    return (image * 37 + p * 41) % 256;
  }

  static void write(
      Path dir, MnistSource.Split split, int imagesMagic, int labelCount, int imageCount)
      throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(Files.newOutputStream(dir.resolve(split.imagesFile())))) {
      out.writeInt(imagesMagic);
      out.writeInt(imageCount);
      out.writeInt(ROWS);
      out.writeInt(COLS);
      for (int i = 0; i < imageCount; i++) {
        for (int p = 0; p < ROWS * COLS; p++) {
          out.writeByte(pixel(i, p));
        }
      }
    }
    try (DataOutputStream out =
        new DataOutputStream(Files.newOutputStream(dir.resolve(split.labelsFile())))) {
      out.writeInt(MnistSource.LABELS_MAGIC);
      out.writeInt(labelCount);
      for (int i = 0; i < labelCount; i++) {
        out.writeByte(LABELS[i]);
      }
    }
  }

  @Test
  void readsPixelsAndLabelsInOrder() throws IOException {
    write(dir, MnistSource.Split.TRAIN, MnistSource.IMAGES_MAGIC, COUNT, COUNT);
    SparkSession spark = TestSpark.session();
    for (int partitions : new int[] {1, 3}) {
      Dataset<Row> df =
          MnistSource.read(
              spark,
              dir.toString(),
              MnistSource.Split.TRAIN,
              null,
              partitions,
              "features",
              "label");
      assertEquals(
          ROWS * COLS, AttributeGroup.fromStructField(df.schema().apply("features")).size());
      List<Row> rows = df.collectAsList();
      assertEquals(COUNT, rows.size());
      for (int i = 0; i < COUNT; i++) {
        Row r = rows.get(i);
        assertEquals(i, r.getLong(0));
        double[] expected = new double[ROWS * COLS];
        for (int p = 0; p < expected.length; p++) {
          expected[p] = pixel(i, p);
        }
        assertArrayEquals(expected, ((Vector) r.get(1)).toArray(), 0.0, "image " + i);
        assertEquals(LABELS[i], r.getInt(2));
      }
    }
    // Bytes >= 128 are unsigned pixel values, not negative numbers.
    assertTrue(
        MnistSource.read(spark, dir.toString(), MnistSource.Split.TRAIN, null, 2, "f", "y")
            .collectAsList()
            .stream()
            .flatMapToDouble(r -> java.util.Arrays.stream(((Vector) r.get(1)).toArray()))
            .anyMatch(v -> v >= 128));
  }

  @Test
  void digitFilterThroughTheSourceSpec() throws IOException {
    write(dir, MnistSource.Split.TEST, MnistSource.IMAGES_MAGIC, COUNT, COUNT);
    SparkSession spark = TestSpark.session();
    LoadedData data =
        DataSources.load(
            spark,
            new SourceOptions("mnist:test:digit=5", null, "pixels", null, 2, dir.toString(), null));
    List<Row> rows = data.data().orderBy("id").collectAsList();
    assertEquals(List.of(0L, 2L, 5L), rows.stream().map(r -> r.getLong(0)).toList());
    for (Row r : rows) {
      assertEquals(5, (int) r.getAs("label"));
      assertEquals(pixel((int) r.getLong(0), 4), ((Vector) r.getAs("pixels")).apply(4), 0.0);
    }
  }

  @Test
  void badMagicNumberIsReported() throws IOException {
    write(dir, MnistSource.Split.TRAIN, 0x00000801, COUNT, COUNT);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MnistSource.read(
                    TestSpark.session(),
                    dir.toString(),
                    MnistSource.Split.TRAIN,
                    null,
                    1,
                    "f",
                    "y"));
    assertTrue(e.getMessage().contains("train-images-idx3-ubyte"), e.getMessage());
    assertTrue(
        e.getMessage().contains("magic number 0x00000801, expected 0x00000803"), e.getMessage());
  }

  @Test
  void gzipIsRecognised() throws IOException {
    write(dir, MnistSource.Split.TRAIN, MnistSource.IMAGES_MAGIC, COUNT, COUNT);
    try (OutputStream out =
        new java.util.zip.GZIPOutputStream(
            Files.newOutputStream(dir.resolve(MnistSource.Split.TRAIN.labelsFile())))) {
      out.write(new byte[] {0, 0, 8, 1, 0, 0, 0, 7, 1, 2, 3, 4, 5, 6, 7});
    }
    IllegalArgumentException e = validationError();
    assertTrue(e.getMessage().contains("gzip"), e.getMessage());
  }

  @Test
  void countMismatchAndTruncationAreReported() throws IOException {
    write(dir, MnistSource.Split.TRAIN, MnistSource.IMAGES_MAGIC, COUNT - 1, COUNT);
    IllegalArgumentException e = validationError();
    assertTrue(e.getMessage().contains("7 images but 6 labels"), e.getMessage());

    write(dir, MnistSource.Split.TRAIN, MnistSource.IMAGES_MAGIC, COUNT, COUNT);
    Path images = dir.resolve(MnistSource.Split.TRAIN.imagesFile());
    byte[] bytes = Files.readAllBytes(images);
    Files.write(images, java.util.Arrays.copyOf(bytes, bytes.length - 3));
    e = validationError();
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void missingFilesPointToFetchMnist() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MnistSource.validate(
                    new org.apache.hadoop.conf.Configuration(),
                    dir.toString(),
                    MnistSource.Split.TEST));
    assertTrue(e.getMessage().contains("bin/fetch-mnist"), e.getMessage());
    assertTrue(
        e.getMessage().contains("t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte"), e.getMessage());
  }

  /** What {@code MnistSource.validate} of the training split in {@code dir} throws. */
  private IllegalArgumentException validationError() {
    return assertThrows(
        IllegalArgumentException.class,
        () ->
            MnistSource.validate(
                new org.apache.hadoop.conf.Configuration(),
                dir.toString(),
                MnistSource.Split.TRAIN));
  }
}
