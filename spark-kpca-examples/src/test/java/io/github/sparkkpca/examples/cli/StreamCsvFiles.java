package io.github.sparkkpca.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * The CSV files of the streaming CLI tests: rows of three features {@code x1,x2,x3} (x1 ~ N(0, 1),
 * x2 ~ 2 N(0, 1), x3 ~ (i mod 2) + N(0, 1)) and an optional last column, one file per micro-batch,
 * with increasing modification times so that a stream reads them in order.
 */
final class StreamCsvFiles {

  private StreamCsvFiles() {}

  /**
   * The text of one file: the header and {@code rows} rows drawn from {@code random}.
   *
   * @param last the last column's header and its value for row i, or null for none
   */
  static String text(Random random, int rows, String lastHeader, IntFunction<Object> last) {
    StringBuilder text =
        new StringBuilder("x1,x2,x3" + (lastHeader == null ? "" : "," + lastHeader));
    text.append('\n');
    for (int i = 0; i < rows; i++) {
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f",
              random.nextGaussian(),
              2 * random.nextGaussian(),
              (i % 2) + random.nextGaussian()));
      if (lastHeader != null) {
        text.append(',').append(last.apply(i));
      }
      text.append(System.lineSeparator());
    }
    return text.toString();
  }

  /**
   * Writes {@code part-<f>.csv} into {@code input}, with the modification time of file {@code f} of
   * the stream.
   *
   * @param aside a directory to write the file into first, moved in whole as a stream's files must
   *     land; or null to write it in place (before the stream starts)
   */
  static Path write(Path input, int f, String text, Path aside) throws IOException {
    Path target = input.resolve("part-" + f + ".csv");
    Path file =
        aside == null
            ? Files.writeString(target, text)
            : Files.move(Files.writeString(aside.resolve(".tmp-" + f + ".csv"), text), target);
    file.toFile().setLastModified(1_700_000_000_000L + f * 10_000L);
    return file;
  }
}
