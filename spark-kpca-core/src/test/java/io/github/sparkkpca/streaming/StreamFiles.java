package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.testing.LocalSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The file stream of the streaming tests: chunks of the rows {@code x} land as Parquet files in
 * {@code dir/input} (written aside and moved in, with increasing modification times), read one file
 * per micro-batch by a query with the {@code AvailableNow} trigger into the model directory {@code
 * dir/model} and a checkpoint under {@code dir}.
 */
final class StreamFiles {

  private final Path dir;
  private final double[][] x;
  private final int chunkRows;

  StreamFiles(Path dir, double[][] x, int chunkRows) {
    this.dir = dir;
    this.x = x;
    this.chunkRows = chunkRows;
  }

  /** Adds chunk c of the rows as one Parquet file of the input directory. */
  void addChunk(int c) throws IOException {
    addChunk(c, chunkRows);
  }

  /** Adds the first {@code rows} rows of chunk c as one Parquet file of the input directory. */
  void addChunk(int c, int rows) throws IOException {
    Path input = Files.createDirectories(dir.resolve("input"));
    Path tmp = dir.resolve("tmp-" + c);
    LocalSpark.frame(Arrays.copyOfRange(x, c * chunkRows, c * chunkRows + rows), 1)
        .write()
        .parquet(tmp.toString());
    try (Stream<Path> files = Files.list(tmp)) {
      Path part =
          files
              .filter(p -> p.getFileName().toString().endsWith(".parquet"))
              .findFirst()
              .orElseThrow();
      Path target = input.resolve("chunk-" + c + ".parquet");
      Files.move(part, target);
      // Distinct modification times keep the files in order, one per micro-batch.
      assertTrue(target.toFile().setLastModified(1_700_000_000_000L + c * 10_000L));
    }
  }

  /** The first {@code chunks} chunks of the rows as a batch DataFrame of two partitions. */
  Dataset<Row> rows(int chunks) {
    return LocalSpark.frame(Arrays.copyOfRange(x, 0, chunks * chunkRows), 2);
  }

  /** The input directory as a stream, one file per micro-batch. */
  Dataset<Row> stream() {
    return LocalSpark.spark()
        .readStream()
        .schema(LocalSpark.frame(new double[][] {new double[x[0].length]}, 1).schema())
        .option("maxFilesPerTrigger", 1)
        .parquet(dir.resolve("input").toString());
  }

  /** The model directory. */
  String model() {
    return dir.resolve("model").toString();
  }

  /** An entry of the model directory. */
  Path entry(String name) {
    return dir.resolve("model").resolve(name);
  }

  /** Runs the sink over the files present, with the checkpoint {@code dir/checkpoint}. */
  void run(StreamingKernelPCA sink, String checkpoint) throws Exception {
    sink.start(stream(), dir.resolve(checkpoint).toString(), Trigger.AvailableNow())
        .awaitTermination();
  }

  /** The names in a directory but Hadoop's checksum files, sorted. */
  static List<String> entries(Path path) throws IOException {
    try (Stream<Path> files = Files.list(path)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".crc"))
          .sorted()
          .toList();
    }
  }

  /** The batch ids of the committed versions, ascending. */
  List<Long> versions() throws IOException {
    List<Long> ids = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("model"))) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("version-"))
          .forEach(n -> ids.add(Long.parseLong(n.substring("version-".length()))));
    }
    ids.sort(null);
    return ids;
  }
}
