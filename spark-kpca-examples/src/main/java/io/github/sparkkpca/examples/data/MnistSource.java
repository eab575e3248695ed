package io.github.sparkkpca.examples.data;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Reads MNIST from its original IDX files (uncompressed, big-endian) into a DataFrame, distributed:
 * the CLI's {@code mnist:} source. (The core's {@link io.github.sparkkpca.examples.data.MnistIdx}
 * reads a split into driver memory, for tests and small experiments; this one scales to files on
 * HDFS or S3.)
 *
 * <p>An IDX3 image file is the magic number 0x00000803, the image count, rows and columns (4-byte
 * big-endian integers each), then count·rows·cols unsigned pixel bytes; an IDX1 label file is
 * 0x00000801, the count, then one byte per label. Both headers are checked on the driver (magic
 * numbers, matching counts, file lengths) so a truncated, compressed or swapped file fails at once
 * with a message naming it.
 *
 * <p><b>Distributed read.</b> The driver only reads the headers. Each of P partitions opens the
 * files itself (through the Hadoop file system, so the directory may be on HDFS or S3 as well as
 * local when every executor can reach it) and streams its contiguous slice of images, so nothing of
 * size n·d passes through the driver. Pixels become raw doubles 0–255 (d = rows·cols, 784 for
 * MNIST); rows keep the file's order and carry their 0-based index {@code id}.
 */
public final class MnistSource {

  /** Magic number of an IDX3 file of unsigned bytes (images). */
  public static final int IMAGES_MAGIC = 0x00000803;

  /** Magic number of an IDX1 file of unsigned bytes (labels). */
  public static final int LABELS_MAGIC = 0x00000801;

  static final int IMAGES_HEADER_BYTES = 16;
  static final int LABELS_HEADER_BYTES = 8;

  private MnistSource() {}

  /** The two MNIST splits and their file names. */
  public enum Split {
    TRAIN("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    TEST("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte");

    private final String imagesFile;
    private final String labelsFile;

    Split(String imagesFile, String labelsFile) {
      this.imagesFile = imagesFile;
      this.labelsFile = labelsFile;
    }

    public String imagesFile() {
      return imagesFile;
    }

    public String labelsFile() {
      return labelsFile;
    }
  }

  /**
   * The validated shape of a split.
   *
   * @param count number of images (= labels)
   * @param rows image height
   * @param cols image width
   */
  public record Header(int count, int rows, int cols) {
    /** Pixels per image. */
    public int dimension() {
      return rows * cols;
    }
  }

  /**
   * {@code $MNIST_DIR} if set, else {@code ~/.cache/spark-kpca/mnist} (as {@code bin/fetch-mnist}).
   */
  public static String defaultDir() {
    return io.github.sparkkpca.examples.data.MnistIdx.defaultDirectory().toString();
  }

  /**
   * Checks that both files of a split exist and agree.
   *
   * @throws IllegalArgumentException when a file is missing (saying to run {@code
   *     bin/fetch-mnist}), has a wrong magic number, is compressed, or its length or count does not
   *     match
   */
  public static Header validate(Configuration conf, String dir, Split split) {
    Path images = new Path(dir, split.imagesFile());
    Path labels = new Path(dir, split.labelsFile());
    try {
      FileSystem fs = images.getFileSystem(conf);
      List<String> missing = new ArrayList<>();
      for (Path p : List.of(images, labels)) {
        if (!fs.exists(p) || !fs.getFileStatus(p).isFile()) {
          missing.add(p.getName());
        }
      }
      if (!missing.isEmpty()) {
        throw new IllegalArgumentException(
            "MNIST "
                + split.name().toLowerCase(java.util.Locale.ROOT)
                + " files not found in "
                + dir
                + " (missing "
                + String.join(", ", missing)
                + "); run bin/fetch-mnist "
                + dir
                + " to download them, or point --mnist-dir or $MNIST_DIR "
                + "at a directory holding the uncompressed IDX files");
      }
      int[] imageHeader = readHeader(fs, images, 4, IMAGES_MAGIC, "IDX3 unsigned-byte images");
      int[] labelHeader = readHeader(fs, labels, 2, LABELS_MAGIC, "IDX1 unsigned-byte labels");
      int count = imageHeader[1];
      int rows = imageHeader[2];
      int cols = imageHeader[3];
      if (count < 0 || rows <= 0 || cols <= 0) {
        throw new IllegalArgumentException(
            "MNIST file "
                + images
                + ": invalid header (count "
                + count
                + ", "
                + rows
                + "x"
                + cols
                + " pixels)");
      }
      if (labelHeader[1] != count) {
        throw new IllegalArgumentException(
            "MNIST files "
                + images.getName()
                + " and "
                + labels.getName()
                + " in "
                + dir
                + " disagree: "
                + count
                + " images but "
                + labelHeader[1]
                + " labels");
      }
      checkLength(
          fs,
          images,
          IMAGES_HEADER_BYTES + (long) count * rows * cols,
          count + " images of " + rows + "x" + cols + " bytes");
      checkLength(fs, labels, LABELS_HEADER_BYTES + (long) count, count + " labels of 1 byte");
      return new Header(count, rows, cols);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read MNIST files in " + dir + ": " + e.getMessage(), e);
    }
  }

  private static int[] readHeader(FileSystem fs, Path path, int ints, int magic, String kind)
      throws IOException {
    int[] header = new int[ints];
    try (DataInputStream in = new DataInputStream(fs.open(path))) {
      for (int i = 0; i < ints; i++) {
        header[i] = in.readInt();
      }
    } catch (EOFException e) {
      throw new IllegalArgumentException("MNIST file " + path + " is too short for an IDX header");
    }
    if (header[0] != magic) {
      boolean gzip = (header[0] >>> 16) == 0x1f8b;
      throw new IllegalArgumentException(
          "MNIST file "
              + path
              + " has magic number "
              + String.format("0x%08X", header[0])
              + ", expected "
              + String.format("0x%08X", magic)
              + " ("
              + kind
              + ")"
              + (gzip
                  ? "; it is gzip-compressed, decompress it first"
                  : "; the file is corrupt or " + "not an IDX file"));
    }
    return header;
  }

  private static void checkLength(FileSystem fs, Path path, long expected, String what)
      throws IOException {
    long length = fs.getFileStatus(path).getLen();
    if (length != expected) {
      throw new IllegalArgumentException(
          "MNIST file "
              + path
              + " has "
              + length
              + " bytes but its header "
              + "announces "
              + what
              + " ("
              + expected
              + " bytes); the file is truncated or corrupt");
    }
  }

  /**
   * Reads a split as columns {@code id} (long, index in the file), {@code featuresCol} (dense
   * vector of rows·cols raw pixel values 0–255, with size metadata) and {@code labelCol} (int).
   *
   * @param digit keep only rows with this label, or null for all
   * @param partitions partitions to read with, or null for Spark's default parallelism
   */
  public static Dataset<Row> read(
      SparkSession spark,
      String dir,
      Split split,
      Integer digit,
      Integer partitions,
      String featuresCol,
      String labelCol) {
    Header header = validate(spark.sparkContext().hadoopConfiguration(), dir, split);
    int p = partitions != null ? partitions : spark.sparkContext().defaultParallelism();
    p = Math.max(1, Math.min(p, Math.max(1, header.count())));
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add(new AttributeGroup(featuresCol, header.dimension()).toStructField())
            .add(labelCol, DataTypes.IntegerType, false);
    Dataset<Row> rows =
        spark
            .range(0, p, 1, p)
            .flatMap(
                new SliceReader(
                    new Path(dir, split.imagesFile()).toString(),
                    new Path(dir, split.labelsFile()).toString(),
                    header,
                    p),
                Encoders.row(schema));
    rows = VectorColumns.withSize(rows, featuresCol, header.dimension());
    return digit == null ? rows : rows.filter(LoadedData.column(labelCol).equalTo(digit));
  }

  /** Streams the images of slice s = [s·count/P, (s+1)·count/P) of the files. */
  static final class SliceReader implements FlatMapFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final String images;
    private final String labels;
    private final int count;
    private final int dim;
    private final int slices;

    SliceReader(String images, String labels, Header header, int slices) {
      this.images = images;
      this.labels = labels;
      this.count = header.count();
      this.dim = header.dimension();
      this.slices = slices;
    }

    @Override
    public Iterator<Row> call(Long slice) throws IOException {
      long start = slice * count / slices;
      long end = (slice + 1) * count / slices;
      if (start >= end) {
        return Collections.emptyIterator();
      }
      Configuration conf = new Configuration();
      Path labelsPath = new Path(labels);
      byte[] labelBytes = new byte[(int) (end - start)];
      try (FSDataInputStream in = labelsPath.getFileSystem(conf).open(labelsPath)) {
        in.readFully(LABELS_HEADER_BYTES + start, labelBytes);
      }
      Path imagesPath = new Path(images);
      FSDataInputStream raw = imagesPath.getFileSystem(conf).open(imagesPath);
      raw.seek(IMAGES_HEADER_BYTES + start * dim);
      DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
      TaskContext task = TaskContext.get();
      if (task != null) {
        task.addTaskCompletionListener((TaskCompletionListener) context -> closeQuietly(in));
      }
      return new Iterator<>() {
        private long next = start;
        private final byte[] pixels = new byte[dim];

        @Override
        public boolean hasNext() {
          return next < end;
        }

        @Override
        public Row next() {
          if (next >= end) {
            throw new NoSuchElementException();
          }
          try {
            in.readFully(pixels);
          } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + images + " at image " + next, e);
          }
          double[] values = new double[dim];
          for (int i = 0; i < dim; i++) {
            values[i] = pixels[i] & 0xFF;
          }
          Row row =
              RowFactory.create(
                  next, new DenseVector(values), labelBytes[(int) (next - start)] & 0xFF);
          next++;
          if (next == end) {
            closeQuietly(in);
          }
          return row;
        }
      };
    }

    private static void closeQuietly(java.io.Closeable c) {
      try {
        c.close();
      } catch (IOException ignored) {
        // Nothing to do: the data were read.
      }
    }
  }
}
