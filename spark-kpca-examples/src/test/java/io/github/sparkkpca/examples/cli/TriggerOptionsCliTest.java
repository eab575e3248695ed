package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code stream} and {@code score-stream} take their trigger options from one mixin ({@link
 * TriggerOptions}): the help of both shows them with the same text, and both refuse a bad value
 * with the same line, before any Spark session starts.
 */
class TriggerOptionsCliTest {

  private static final List<String> OPTIONS =
      List.of("--available-now", "--max-files-per-trigger", "--trigger-interval");

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SparkKpcaCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  /** The lines of one option's entry in a usage help: its first line and its continuations. */
  private static String entry(String help, String option) {
    List<String> lines = help.lines().toList();
    List<String> entry = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(option)) {
        entry.add(lines.get(i).strip());
        for (int j = i + 1;
            j < lines.size()
                && !lines.get(j).strip().startsWith("-")
                && !lines.get(j).isBlank()
                && lines.get(j).startsWith(" ");
            j++) {
          entry.add(lines.get(j).strip());
        }
        break;
      }
    }
    // The description column starts where each command's longest option ends.
    return String.join(" ", entry).replaceAll("\\s+", " ");
  }

  @Test
  void bothCommandsShowTheTriggerOptionsWithTheSameText() {
    Run stream = run("stream", "--help");
    Run score = run("score-stream", "--help");
    assertEquals(0, stream.code(), stream.err());
    assertEquals(0, score.code(), score.err());
    for (String option : OPTIONS) {
      String inStream = entry(stream.out(), option);
      assertTrue(inStream.startsWith(option), option + " missing from stream --help:\n" + stream);
      assertEquals(inStream, entry(score.out(), option), option);
    }
    assertTrue(
        entry(stream.out(), "--available-now")
            .endsWith("Process the files present now, then stop."),
        stream.out());
    assertTrue(
        entry(stream.out(), "--trigger-interval")
            .contains("start a micro-batch every SECONDS (0: as soon as the previous one ends)"),
        stream.out());
  }

  @Test
  void bothCommandsRefuseABadTriggerWithTheSameLine() {
    List<String> lines = new ArrayList<>();
    for (List<String> command :
        List.of(
            List.of("stream", "--model-out", "m", "--k", "2", "--landmarks", "5"),
            List.of("score-stream", "--model", "m", "--output", "o"))) {
      for (List<String> trigger :
          List.of(
              List.of("--available-now", "--trigger-interval", "2"),
              List.of("--max-files-per-trigger", "0"),
              List.of("--trigger-interval", "-1"))) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--input", "in", "--checkpoint", "c"));
        args.addAll(trigger);
        Run r = run(args.toArray(String[]::new));
        assertEquals(2, r.code(), r.err());
        String first = r.err().lines().filter(l -> !l.isBlank()).findFirst().orElse("");
        lines.add(first.replace(" (see 'spark-kpca " + command.get(0) + " --help')", ""));
      }
    }
    assertEquals(
        List.of(
            SparkKpcaCli.ERROR_PREFIX + "--trigger-interval does not apply with --available-now",
            SparkKpcaCli.ERROR_PREFIX + "--max-files-per-trigger must be >= 1, got 0",
            SparkKpcaCli.ERROR_PREFIX + "--trigger-interval must be finite and >= 0, got -1.0"),
        lines.subList(0, 3));
    assertEquals(lines.subList(0, 3), lines.subList(3, 6));
  }
}
