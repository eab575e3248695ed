package io.github.sparkkpca.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the CLI tests set up and read back around {@link TestSpark#cli}: CSV inputs written under
 * any header order, the lines of a command's CSV output, a small fit, and a one-pass stream.
 */
final class CliFixture {

  /** The modification time of the first file {@link #writeCsv} writes; file f is f·10 s later. */
  static final long FIRST_MODIFIED = 1_700_000_000_000L;

  private CliFixture() {}

  /** A cell: {@code v} with 6 decimals. */
  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  /**
   * Writes {@code rows} (cells in the order of the comma-separated {@code names}) under {@code
   * header} (the same names in any order) to {@code file}, whole (through a hidden file moved into
   * place, so a stream never reads it half-written), modified at {@link #FIRST_MODIFIED} + f·10 s
   * so that a stream reads the files in the order of f.
   */
  static Path writeCsv(Path file, String names, String header, List<String[]> rows, int f)
      throws IOException {
    List<String> columns = List.of(names.split(","));
    List<String> order = List.of(header.split(","));
    StringBuilder text = new StringBuilder(header).append('\n');
    for (String[] row : rows) {
      String[] cells = new String[columns.size()];
      for (int c = 0; c < cells.length; c++) {
        cells[order.indexOf(columns.get(c))] = row[c];
      }
      text.append(String.join(",", cells)).append('\n');
    }
    Path parent = Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = Files.writeString(parent.resolve(".tmp-" + file.getFileName()), text.toString());
    Files.move(tmp, file);
    file.toFile().setLastModified(FIRST_MODIFIED + f * 10_000L);
    return file;
  }

  /**
   * Writes {@code text} to {@code file} (replacing it), modified at {@link #FIRST_MODIFIED} + f·10
   * s: a file landing in a stream's input as the f-th.
   */
  static Path land(Path file, String text, int f) throws IOException {
    Files.writeString(file, text);
    file.toFile().setLastModified(FIRST_MODIFIED + f * 10_000L);
    return file;
  }

  /** {@link #land} of a copy of {@code source}. */
  static Path landCopy(Path source, Path file, int f) throws IOException {
    return land(file, Files.readString(source), f);
  }

  /** The lines of the CSV part files of an output directory, in part order, without headers. */
  static List<String> outputLines(Path output) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> parts = Files.list(output)) {
      for (Path part :
          parts.filter(p -> p.getFileName().toString().endsWith(".csv")).sorted().toList()) {
        List<String> content = Files.readAllLines(part);
        lines.addAll(content.subList(1, content.size()));
      }
    }
    return lines;
  }

  /** A JSON document a command wrote, e.g. its {@code --summary-out}. */
  static JsonNode json(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }

  /** The keys of a JSON object, in the document's order. */
  static List<String> keys(JsonNode json) {
    List<String> keys = new ArrayList<>();
    json.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  /** The names in {@code directory}, sorted. */
  static List<String> names(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * {@code spark-kpca fit --input input --k 2 --landmarks 10 --seed 1 --model-out modelOut more}.
   */
  static TestSpark.Result fit(Path input, Path modelOut, String... more) {
    return TestSpark.cli(
        with(
            List.of(
                "fit",
                "--input",
                input.toString(),
                "--k",
                "2",
                "--landmarks",
                "10",
                "--seed",
                "1",
                "--model-out",
                modelOut.toString()),
            more));
  }

  /**
   * {@code spark-kpca stream} of the files in {@code input} once ({@code --available-now}, a file
   * per micro-batch) into {@code dir/name-model} with checkpoint {@code dir/name-checkpoint}, label
   * column {@code label}, k = 2, then {@code more}.
   */
  static TestSpark.Result streamOnce(Path input, Path dir, String name, String... more) {
    return TestSpark.cli(
        with(
            List.of(
                "stream",
                "--input",
                input.toString(),
                "--model-out",
                dir.resolve(name + "-model").toString(),
                "--checkpoint",
                dir.resolve(name + "-checkpoint").toString(),
                "--available-now",
                "--max-files-per-trigger",
                "1",
                "--label-col",
                "label",
                "--k",
                "2"),
            more));
  }

  /**
   * The command of {@code spark-kpca args} in a new JVM with the heap option {@code heap} (e.g.
   * {@code -Xmx1g}, Spark's default driver memory) and this JVM's module options, on the classpath
   * without the test classes: their log4j2-test.properties is a user's own configuration, which the
   * CLI leaves as it is.
   */
  static List<String> childCli(String heap, String... args) {
    String classPath =
        String.join(
            java.io.File.pathSeparator,
            Stream.of(
                    System.getProperty(
                            "surefire.test.class.path", System.getProperty("java.class.path"))
                        .split(java.io.File.pathSeparator))
                .filter(e -> !e.endsWith("test-classes") && !e.endsWith("-tests.jar"))
                .toList());
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")
          || arg.startsWith("--add-modules")
          || arg.startsWith("-XX:+IgnoreUnrecognizedVMOptions")
          || arg.startsWith("-Djdk.reflect")
          || arg.startsWith("-Dio.netty")) {
        command.add(arg);
      }
    }
    command.addAll(List.of(heap, "-cp", classPath, SparkKpcaCli.class.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** {@code spark-kpca} with {@code args} then {@code more}. */
  static TestSpark.Result run(List<String> args, String... more) {
    return TestSpark.cli(with(args, more));
  }

  private static String[] with(List<String> args, String... more) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
