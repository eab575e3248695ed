package io.github.sparkkpca.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.SparkKpcaCli;
import io.github.sparkkpca.examples.cli.TestSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench score-stream on a tiny input: one CSV line per mode and repetition, every mode scoring
 * every row (the command checks the counts), the micro-batches each mode makes; bench itself still
 * asks for --m.
 */
class ScoreStreamBenchTest {

  @TempDir Path dir;

  @Test
  void writesOneLinePerModeAndRepetition() throws IOException {
    Path out = dir.resolve("out");
    TestSpark.Result run =
        TestSpark.cli(
            "bench",
            "score-stream",
            "--input",
            "synthetic:n=240,d=4,seed=3",
            "--rows",
            "200",
            "--files",
            "4",
            "--m",
            "10",
            "--k",
            "2",
            "--repeat",
            "1",
            "--out",
            out.toString());
    assertEquals(0, run.code(), run::toString);
    List<String> lines = Files.readAllLines(out.resolve("score-stream.csv"));
    assertEquals(ScoreStreamBench.COLUMNS, lines.get(0));
    assertEquals(5, lines.size(), lines::toString);
    assertTrue(lines.get(1).startsWith("\"batch\",0,200,1,"), lines.get(1));
    assertTrue(
        lines.get(2).startsWith("\"stream, 1 file per micro-batch\",0,200,4,"), lines.get(2));
    assertTrue(
        lines.get(3).startsWith("\"stream, 2 files per micro-batch\",0,200,2,"), lines.get(3));
    assertTrue(
        lines.get(4).startsWith("\"stream, all files in one micro-batch\",0,200,1,"), lines.get(4));
    assertTrue(run.out().contains("÷ batch"), run.out());

    TestSpark.Result refused = TestSpark.cli("bench", "score-stream", "--out", out.toString());
    assertEquals(SparkKpcaCli.EXIT_USAGE, refused.code(), refused::toString);
    assertTrue(
        refused.err().contains("--out " + out + ": it exists and is not empty"), refused::toString);
    TestSpark.Result noM =
        TestSpark.cli("bench", "--n", "100", "--out", dir.resolve("b").toString());
    assertEquals(SparkKpcaCli.EXIT_USAGE, noM.code(), noM::toString);
    assertTrue(noM.err().contains("Missing required option: '--m=M'"), noM::toString);
  }
}
