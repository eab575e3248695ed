package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.SparkKpcaCli;
import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench stream on three tiny CSV files: one stream.csv line per model, the fits (two before the
 * stream, two after) and the steady micro-batches (all but the first) it took its medians of; the
 * write cost's line; bad --data and --models refused with one line.
 */
class StreamBenchTest {

  @TempDir Path dir;

  @Test
  void writesOneLinePerModelAndTheWriteCost() throws IOException {
    Path data = dir.resolve("data");
    Files.createDirectories(data.resolve("csv"));
    Random random = new Random(5);
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      lines.add("x0,x1,x2,x3,label");
      for (int i = 0; i < 30; i++) {
        lines.add(
            String.format(
                Locale.ROOT,
                "%.4f,%.4f,%.4f,%.4f,%d",
                random.nextGaussian(),
                random.nextGaussian(),
                random.nextGaussian(),
                random.nextGaussian(),
                i % 3));
      }
      Path file = data.resolve("csv").resolve("part-" + f + ".csv");
      Files.write(file, lines);
      Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000_000_000L + 10_000L * f));
    }
    Path out = dir.resolve("out");
    TestSpark.Result run =
        TestSpark.cli(
            "bench",
            "stream",
            "--data",
            data.toString(),
            "--formats",
            "csv",
            "--models",
            "rff,nystrom",
            "--size",
            "8",
            "--k",
            "2",
            "--gamma",
            "0.5",
            "--out",
            out.toString());
    assertEquals(0, run.code(), run::toString);
    List<String> lines = Files.readAllLines(out.resolve("stream.csv"));
    assertEquals(StreamBench.COLUMNS, lines.get(0));
    assertEquals(3, lines.size(), lines::toString);
    for (int i = 1; i < 3; i++) {
      String line = lines.get(i);
      assertTrue(line.startsWith(i == 1 ? "csv,rff,8,1,30," : "csv,nystrom,8,1,30,"), line);
      String[] quoted = line.split("\"");
      assertEquals(4, quoted[1].split(" ").length, line); // the fits
      assertEquals(2, quoted[3].split(" ").length, line); // micro-batches 1 and 2
      String[] cols = quoted[0].split(",");
      double batch = Double.parseDouble(cols[5]);
      double steady = Double.parseDouble(cols[6]);
      assertTrue(batch > 0 && steady > 0, line);
      // The file rounds each to 3 decimals; the ratio was taken before rounding.
      double ratio = Double.parseDouble(cols[7]);
      assertEquals(
          steady / batch, ratio, ratio * (0.0005 / batch + 0.0005 / steady) + 0.0005, line);
    }
    assertTrue(run.out().contains("steady micro-batch"), run.out());

    Path writeOut = dir.resolve("write");
    TestSpark.Result write =
        TestSpark.cli(
            "bench",
            "stream",
            "--write-cost",
            "--data",
            data.toString(),
            "--formats",
            "csv",
            "--models",
            "rff",
            "--size",
            "8",
            "--k",
            "2",
            "--gamma",
            "0.5",
            "--out",
            writeOut.toString());
    assertEquals(0, write.code(), write::toString);
    List<String> costs = Files.readAllLines(writeOut.resolve("write-cost.csv"));
    assertEquals(List.of(StreamBench.WRITE_COLUMNS), costs.subList(0, 1));
    assertEquals(2, costs.size(), costs::toString);
    assertTrue(costs.get(1).startsWith("rff,8,30,"), costs.get(1));
    assertTrue(Double.parseDouble(costs.get(1).split(",")[5]) > 0, costs.get(1)); // version MB

    TestSpark.Result noData =
        TestSpark.cli(
            "bench",
            "stream",
            "--data",
            dir.resolve("none").toString(),
            "--formats",
            "csv",
            "--out",
            dir.resolve("o2").toString());
    assertEquals(SparkKpcaCli.EXIT_USAGE, noData.code(), noData::toString);
    assertTrue(noData.err().contains("needs csv/part-0.csv to part-1.csv"), noData::toString);
    TestSpark.Result badModel =
        TestSpark.cli(
            "bench",
            "stream",
            "--data",
            data.toString(),
            "--models",
            "pca",
            "--out",
            dir.resolve("o3").toString());
    assertEquals(SparkKpcaCli.EXIT_USAGE, badModel.code(), badModel::toString);
    assertTrue(badModel.err().contains("--models: unknown model 'pca'"), badModel::toString);
  }
}
