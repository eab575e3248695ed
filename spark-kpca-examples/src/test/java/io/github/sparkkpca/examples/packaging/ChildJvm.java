package io.github.sparkkpca.examples.packaging;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A started JVM whose output (stdout and stderr) is copied line by line to a log file and kept. */
final class ChildJvm {
  final Process process;
  final Path log;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final Thread pump;

  private ChildJvm(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.pump = new Thread(this::pump, "output of " + log.getFileName());
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * {@code java} of this JVM's home with the build's {@code --add-opens} options and the heap
   * option.
   */
  static List<String> java(String heap) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String option : System.getProperty("spark.jvm.opens", "").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        command.add(option);
      }
    }
    command.add(heap);
    return command;
  }

  static ChildJvm start(List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    for (String inherited :
        List.of(
            "SPARK_CLASSPATH",
            "SPARK_DIST_CLASSPATH",
            "SPARK_JAVA_OPTS",
            "HADOOP_CONF_DIR",
            "YARN_CONF_DIR",
            "SPARK_WORKER_OPTS",
            "SPARK_DAEMON_JAVA_OPTS")) {
      env.remove(inherited);
    }
    env.putAll(environment);
    return new ChildJvm(builder.start(), log);
  }

  private void pump() {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(line);
        out.flush();
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> lines() {
    synchronized (lines) {
      return new ArrayList<>(lines);
    }
  }

  String output() {
    return String.join("\n", lines());
  }

  /** The last lines of the output, and where the rest is, for failure messages. */
  String tail() {
    List<String> all = lines();
    return "(whole output in "
        + log
        + ")\n"
        + String.join("\n", all.subList(Math.max(0, all.size() - 150), all.size()));
  }

  /**
   * Waits for the first output line that matches {@code pattern} and {@code accept}; fails if the
   * process ends or the time runs out first.
   */
  Matcher awaitLine(Pattern pattern, Predicate<Matcher> accept, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int seen = 0;
    while (true) {
      List<String> now = lines();
      for (; seen < now.size(); seen++) {
        Matcher matcher = pattern.matcher(now.get(seen));
        if (matcher.matches() && accept.test(matcher)) {
          return matcher;
        }
      }
      if (!process.isAlive() && !pump.isAlive()) {
        fail(
            log.getFileName()
                + ": ended with "
                + process.exitValue()
                + " before a line matching "
                + pattern
                + ":\n"
                + tail());
      }
      if (System.nanoTime() > deadline) {
        fail(
            log.getFileName()
                + ": no line matching "
                + pattern
                + " in "
                + timeout
                + ":\n"
                + tail());
      }
      Thread.sleep(20);
    }
  }

  /** Waits for the exit code (and the rest of the output); fails when the time runs out. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      fail(log.getFileName() + ": still running after " + timeout + ":\n" + tail());
    }
    pump.join(TimeUnit.SECONDS.toMillis(30));
    return process.exitValue();
  }

  /** Asks the JVM to stop (its shutdown hooks run), then kills it after 20 s. */
  void stop() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
