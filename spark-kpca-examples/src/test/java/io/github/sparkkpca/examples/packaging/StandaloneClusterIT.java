package io.github.sparkkpca.examples.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.cli.TestSpark;
import io.github.sparkkpca.examples.data.InjectedTaskFailure;
import io.github.sparkkpca.ml.NystromKernelPCAModel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fit} and {@code transform} of the packaged examples jar on a real Spark standalone
 * cluster, with faults: a master and two workers (1 core, 1 GiB each) run as separate JVMs from a
 * Spark home that the build assembles ({@code target/spark-home/jars}: Spark's jars as Maven
 * resolved them, nothing downloaded), all bound to 127.0.0.1. Each worker starts its executor as a
 * further JVM from that home, as a worker of a Spark distribution does. The commands are submitted
 * in client mode by Spark's {@code SparkSubmit}, as {@code spark-submit --master spark://…} would,
 * with {@code spark.task.maxFailures=4} and
 *
 * <ul>
 *   <li>a task failure: {@link InjectedTaskFailure} makes the first attempt of partition 3 of the
 *       input throw (in the first pass over it, and in any pass that recomputes it);
 *   <li>a lost executor: once the driver reports the statistics pass running with tasks left, the
 *       test kills one worker's executor JVM (SIGKILL). Its running task, its cached input
 *       partitions and its shuffle output are lost; Spark recomputes them and the worker starts a
 *       new executor.
 * </ul>
 *
 * The fit must still give the model that the same command fits on {@code local[2]} in this JVM
 * (landmarks bit for bit, eigenvalues, projector and offset to 1e-10 relative: the fit is
 * deterministic and independent of the partitioning, up to the order of floating-point merges), and
 * the cluster's transform must write every input row exactly once, in input order, with the local
 * scores.
 *
 * <p>Every JVM the test starts is stopped at the end, also on failure or timeout (and by a shutdown
 * hook if this JVM is killed). Logs (the daemons', the drivers' and, under {@code worker-N/}, the
 * executors') are kept in {@code target/standalone-cluster-it}.
 */
class StandaloneClusterIT {

  /**
   * 40,000 rows in 32 partitions of a generated data set (rows are a function of their index, so a
   * lost partition is recomputed identically): with m = 300 the statistics pass is long enough
   * (seconds, in 32 tasks on two one-core executors) to kill an executor while it runs.
   */
  static final int ROWS = 40_000;

  static final String INPUT = "synthetic:n=" + ROWS + ",d=20,seed=7,partitions=32";
  static final int FAILING_PARTITION = 3;
  static final List<String> FIT = List.of("--k", "5", "--landmarks", "300", "--seed", "3");

  /**
   * The CLI's progress line of the statistics pass while it runs: tasks done and the stage's tasks.
   */
  static final Pattern STATISTICS_RUNNING =
      Pattern.compile("spark-kpca: \\[running [^\\]]*] .*statistics.*: (\\d+)/(\\d+) tasks.*");

  /** The statistics tasks that have to be done before the executor is killed. */
  static final int KILL_AFTER_TASKS = 4;

  static final Pattern STATISTICS_DONE =
      Pattern.compile("spark-kpca: \\[done [^\\]]*] .*statistics.*");
  static final double RELATIVE = 1e-10;

  @TempDir Path dir;

  @Test
  @Timeout(value = 40, unit = TimeUnit.MINUTES)
  void fitAndTransformSurviveAFailedTaskAndALostExecutorAndMatchTheLocalResults() throws Exception {
    Path jar = Path.of(System.getProperty("examples.jar", "target/missing.jar"));
    Path sparkHome =
        Path.of(System.getProperty("cluster.spark.home", "target/spark-home")).toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn verify`");
    assertTrue(
        Files.isDirectory(sparkHome.resolve("jars")),
        sparkHome + "/jars is missing: run `mvn verify`");
    Path logs = Path.of("target", "standalone-cluster-it").toAbsolutePath();
    Files.createDirectories(logs);

    // The reference: the same commands on local[2], in this JVM.
    Path localModel = dir.resolve("local-model");
    Path localSummary = dir.resolve("local-summary.json");
    Path localScores = dir.resolve("local-scores");
    TestSpark.Result localFit =
        TestSpark.cli(
            concat(
                List.of("fit", "--input", INPUT),
                FIT,
                List.of(
                    "--model-out",
                    localModel.toString(),
                    "--summary-out",
                    localSummary.toString(),
                    "--progress-interval",
                    "0")));
    assertEquals(0, localFit.code(), localFit::toString);
    TestSpark.Result localTransform =
        TestSpark.cli(
            "transform",
            "--model",
            localModel.toString(),
            "--input",
            INPUT,
            "--output",
            localScores.toString(),
            "--progress-interval",
            "0");
    assertEquals(0, localTransform.code(), localTransform::toString);

    Path clusterModel = dir.resolve("cluster-model");
    Path clusterSummary = dir.resolve("cluster-summary.json");
    Path clusterScores = dir.resolve("cluster-scores");
    try (Cluster cluster = Cluster.start(sparkHome, logs)) {
      ChildJvm fit =
          cluster.submit(
              jar,
              logs.resolve("driver-fit.log"),
              List.of(
                  concat(
                      List.of("fit", "--input", INPUT),
                      FIT,
                      List.of(
                          "--model-out",
                          clusterModel.toString(),
                          "--summary-out",
                          clusterSummary.toString(),
                          "--progress-interval",
                          "0.05"))));
      // Kill once a few statistics tasks have finished (their shuffle output on the executor is
      // lost too)
      // and at most half of them.
      Matcher running =
          fit.awaitLine(
              STATISTICS_RUNNING,
              m -> Integer.parseInt(m.group(1)) >= KILL_AFTER_TASKS,
              Duration.ofMinutes(10));
      int done = Integer.parseInt(running.group(1));
      int tasks = Integer.parseInt(running.group(2));
      assertTrue(
          done <= tasks / 2,
          "the statistics pass was "
              + done
              + "/"
              + tasks
              + " done when reported "
              + "with at least "
              + KILL_AFTER_TASKS
              + " tasks done; too far to kill an executor in its middle:\n"
              + fit.tail());
      ProcessHandle executor = cluster.killExecutorOfWorker(0);
      assertEquals(
          0,
          fit.awaitExit(Duration.ofMinutes(10)),
          () -> "fit failed on the cluster:\n" + fit.tail());

      List<String> lines = fit.lines();
      int killed = lines.indexOf(running.group());
      int lost = indexOf(lines, Pattern.compile(".*Lost executor.*"), killed);
      int statisticsDone = indexOf(lines, STATISTICS_DONE, killed);
      assertTrue(
          lost > killed && lost < statisticsDone,
          "the driver did not lose executor (pid "
              + executor.pid()
              + ") while the statistics pass ran:\n"
              + fit.tail());
      assertTrue(
          fit.output().contains(injectedFailure()), "no injected task failure:\n" + fit.tail());

      ChildJvm transform =
          cluster.submit(
              jar,
              logs.resolve("driver-transform.log"),
              List.of(
                  "transform",
                  "--model",
                  clusterModel.toString(),
                  "--input",
                  INPUT,
                  "--output",
                  clusterScores.toString(),
                  "--progress-interval",
                  "0"));
      assertEquals(
          0,
          transform.awaitExit(Duration.ofMinutes(10)),
          () -> "transform failed on the cluster:\n" + transform.tail());
      assertTrue(
          transform.output().contains(injectedFailure()),
          "no injected task failure:\n" + transform.tail());
    }

    assertSameSummary(readJson(localSummary), readJson(clusterSummary));
    NystromKernelPCAModel local = NystromKernelPCAModel.load(localModel.toString());
    NystromKernelPCAModel remote = NystromKernelPCAModel.load(clusterModel.toString());
    assertArrayEquals(local.landmarks().toArray(), remote.landmarks().toArray(), 0.0, "landmarks");
    assertClose(local.eigenvalues().toArray(), remote.eigenvalues().toArray(), "eigenvalues");
    assertClose(local.projector().toArray(), remote.projector().toArray(), "projector");
    assertClose(local.offset().toArray(), remote.offset().toArray(), "offset");

    List<String[]> expected = readScores(localScores);
    List<String[]> actual = readScores(clusterScores);
    assertEquals(ROWS, expected.size(), "rows of the local transform");
    assertEquals(ROWS, actual.size(), "rows of the cluster's transform");
    int columns = expected.get(0).length;
    double[] scale = new double[columns];
    for (String[] row : expected) {
      for (int c = 0; c < columns; c++) {
        scale[c] = Math.max(scale[c], Math.abs(Double.parseDouble(row[c])));
      }
    }
    // Rows are written in input order, so row i of both outputs is input row i: any lost or
    // repeated row
    // would shift the rows after it.
    for (int i = 0; i < ROWS; i++) {
      for (int c = 0; c < columns; c++) {
        double want = Double.parseDouble(expected.get(i)[c]);
        double got = Double.parseDouble(actual.get(i)[c]);
        if (Math.abs(want - got) > 1e-9 * scale[c]) {
          fail("row " + (i + 1) + ", column " + (c + 1) + ": cluster " + got + ", local " + want);
        }
      }
    }
  }

  private static String injectedFailure() {
    return InjectedTaskFailure.CONF
        + "="
        + FAILING_PARTITION
        + ": injected failure of attempt 0 of partition "
        + FAILING_PARTITION;
  }

  private static void assertSameSummary(JsonNode local, JsonNode cluster) {
    for (String key : List.of("n", "d", "m", "rank", "k", "centered")) {
      assertEquals(local.get(key), cluster.get(key), key);
    }
    assertEquals(ROWS, cluster.get("n").asLong());
    for (String key : List.of("gamma", "totalVariance")) {
      assertClose(
          new double[] {local.get(key).asDouble()},
          new double[] {cluster.get(key).asDouble()},
          key);
    }
    for (String key : List.of("eigenvalues", "reconstructionError")) {
      assertClose(doubles(local.get(key)), doubles(cluster.get(key)), key);
    }
  }

  /** Equal up to {@link #RELATIVE} of the largest magnitude in {@code expected}. */
  private static void assertClose(double[] expected, double[] actual, String what) {
    assertEquals(expected.length, actual.length, what + ": length");
    double scale = 0;
    for (double v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < expected.length; i++) {
      if (!(Math.abs(expected[i] - actual[i]) <= RELATIVE * scale)) {
        fail(
            what
                + "["
                + i
                + "]: cluster "
                + actual[i]
                + ", local "
                + expected[i]
                + " (scale "
                + scale
                + ")");
      }
    }
  }

  static double[] doubles(JsonNode array) {
    double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asDouble();
    }
    return values;
  }

  static JsonNode readJson(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }

  /**
   * The rows of transform's CSV output: its part files in name order, each without its header line.
   */
  private static List<String[]> readScores(Path output) throws IOException {
    List<Path> parts;
    try (Stream<Path> files = Files.list(output)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    List<String[]> rows = new ArrayList<>();
    for (Path part : parts) {
      List<String> lines = Files.readAllLines(part, StandardCharsets.UTF_8);
      assertTrue(lines.get(0).startsWith("pc_1,"), "header of " + part + ": " + lines.get(0));
      lines.stream().skip(1).map(l -> l.split(",")).forEach(rows::add);
    }
    return rows;
  }

  private static int indexOf(List<String> lines, Pattern pattern, int from) {
    for (int i = Math.max(0, from); i < lines.size(); i++) {
      if (pattern.matcher(lines.get(i)).matches()) {
        return i;
      }
    }
    return -1;
  }

  @SafeVarargs
  private static String[] concat(List<String>... parts) {
    return Arrays.stream(parts).flatMap(List::stream).toArray(String[]::new);
  }

  /**
   * A Spark standalone master and two workers on 127.0.0.1, started from {@code sparkHome} as
   * separate JVMs, and the drivers submitted to them. {@link #close} stops every one of them and
   * whatever they started (executors), forcibly after a grace period.
   */
  static final class Cluster implements AutoCloseable {
    static final int WORKERS = 2;
    private final Path sparkHome;
    private final Path logs;
    private final Map<String, String> environment;
    private final List<ChildJvm> children = Collections.synchronizedList(new ArrayList<>());
    private final List<ChildJvm> workers = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopAll, "standalone-cluster-it-cleanup");
    private String masterUrl;

    private Cluster(Path sparkHome, Path logs) throws IOException {
      this.sparkHome = sparkHome;
      this.logs = logs;
      Path conf = Files.createDirectories(logs.resolve("conf"));
      // The variables a distribution's sbin scripts would set (load-spark-env.sh sets the Scala
      // version,
      // which the worker's executor command builder needs); settings of a Spark installation on
      // this
      // machine are kept out.
      this.environment =
          Map.of(
              "SPARK_HOME", sparkHome.toString(),
              "SPARK_CONF_DIR", conf.toString(),
              "SPARK_SCALA_VERSION", System.getProperty("scala.binary.version", "2.13"),
              "SPARK_LOCAL_IP", "127.0.0.1",
              "JAVA_HOME", System.getProperty("java.home"));
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts the master and the workers and waits until both workers are registered (alive). */
    static Cluster start(Path sparkHome, Path logs) throws IOException, InterruptedException {
      Cluster cluster = new Cluster(sparkHome, logs);
      try {
        int port = freePort();
        int webUiPort = freePort();
        cluster.masterUrl = "spark://127.0.0.1:" + port;
        ChildJvm master =
            cluster.daemon(
                "master",
                List.of(
                    "-Dspark.master.rest.enabled=false",
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    String.valueOf(port),
                    "--webui-port",
                    String.valueOf(webUiPort)));
        for (int w = 1; w <= WORKERS; w++) {
          Path workDir = Files.createDirectories(logs.resolve("worker-" + w));
          cluster.workers.add(
              cluster.daemon(
                  "worker-" + w,
                  List.of(
                      "org.apache.spark.deploy.worker.Worker",
                      "--host",
                      "127.0.0.1",
                      "--port",
                      "0",
                      "--webui-port",
                      "0",
                      "--cores",
                      "1",
                      "--memory",
                      "1g",
                      "--work-dir",
                      workDir.toString(),
                      cluster.masterUrl)));
        }
        cluster.awaitWorkers(master, webUiPort, Duration.ofMinutes(5));
        return cluster;
      } catch (IOException | InterruptedException | RuntimeException | Error e) {
        cluster.close();
        throw e;
      }
    }

    private ChildJvm daemon(String name, List<String> mainAndArgs) throws IOException {
      List<String> command = ChildJvm.java("-Xmx256m");
      command.add("-cp");
      command.add(sparkHome.resolve("jars") + "/*");
      command.addAll(mainAndArgs);
      return started(ChildJvm.start(command, environment, logs.resolve(name + ".log")));
    }

    /**
     * Submits the CLI with {@code args} in client mode; the driver fails partition 3's first
     * attempt.
     */
    ChildJvm submit(Path jar, Path log, List<String> args) throws IOException {
      return submit(jar, log, args, "1g", List.of());
    }

    /**
     * {@link #submit(Path, Path, List)} with a driver of {@code driverHeap} and more {@code --conf
     * key=value} settings.
     */
    ChildJvm submit(Path jar, Path log, List<String> args, String driverHeap, List<String> conf)
        throws IOException {
      List<String> command = ChildJvm.java("-Xmx" + driverHeap);
      command.add("-cp");
      command.add(Files.readString(Path.of("target", "classpath.txt")).trim());
      command.addAll(
          List.of(
              "org.apache.spark.deploy.SparkSubmit",
              "--master",
              masterUrl,
              "--deploy-mode",
              "client",
              "--conf",
              "spark.driver.host=127.0.0.1",
              "--conf",
              "spark.driver.bindAddress=127.0.0.1",
              "--conf",
              "spark.ui.enabled=false",
              "--conf",
              "spark.task.maxFailures=4",
              "--conf",
              InjectedTaskFailure.CONF + "=" + FAILING_PARTITION,
              "--conf",
              "spark.driver.memory=" + driverHeap));
      for (String setting : conf) {
        command.add("--conf");
        command.add(setting);
      }
      command.addAll(
          List.of(
              "--class",
              "io.github.sparkkpca.examples.cli.SparkKpcaCli",
              jar.toAbsolutePath().toString()));
      command.addAll(args);
      return started(ChildJvm.start(command, environment, log));
    }

    /**
     * Kills (SIGKILL) the executor JVM that worker {@code index} started, as a crash would, and
     * waits until it is gone.
     */
    ProcessHandle killExecutorOfWorker(int index) throws Exception {
      ChildJvm worker = workers.get(index);
      List<ProcessHandle> executors =
          worker.process.children().filter(ProcessHandle::isAlive).toList();
      assertEquals(
          1, executors.size(), () -> "executors of worker " + (index + 1) + ": " + executors);
      ProcessHandle executor = executors.get(0);
      String commandLine = executor.info().commandLine().orElse("");
      assertTrue(
          commandLine.isEmpty() || commandLine.contains("CoarseGrainedExecutorBackend"),
          commandLine);
      executor.destroyForcibly();
      executor.onExit().get(1, TimeUnit.MINUTES);
      return executor;
    }

    private void awaitWorkers(ChildJvm master, int webUiPort, Duration timeout)
        throws InterruptedException {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webUiPort + "/json/"))
              .timeout(Duration.ofSeconds(10))
              .build();
      long deadline = System.nanoTime() + timeout.toNanos();
      String last = "no answer";
      while (System.nanoTime() < deadline) {
        for (ChildJvm child : children) {
          if (!child.process.isAlive()) {
            fail(
                child.log.getFileName()
                    + ": exited with "
                    + child.process.exitValue()
                    + ":\n"
                    + child.tail());
          }
        }
        try {
          last = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
          if (new ObjectMapper().readTree(last).path("aliveworkers").asInt() == WORKERS) {
            return;
          }
        } catch (IOException e) {
          last = e.toString();
        }
        Thread.sleep(250);
      }
      fail(
          "the workers did not register with the master in "
              + timeout
              + "; master's state: "
              + last
              + "\n"
              + master.tail());
    }

    private ChildJvm started(ChildJvm child) {
      children.add(child);
      return child;
    }

    private static int freePort() throws IOException {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      }
    }

    /**
     * Stops the drivers, the workers and the master (latest first), then anything they left
     * running.
     */
    private void stopAll() {
      List<ChildJvm> started;
      synchronized (children) {
        started = new ArrayList<>(children);
      }
      Collections.reverse(started);
      List<ProcessHandle> descendants = new ArrayList<>();
      for (ChildJvm child : started) {
        child.process.descendants().forEach(descendants::add);
      }
      for (ChildJvm child : started) {
        child.stop();
      }
      for (ProcessHandle handle : descendants) {
        handle.destroyForcibly();
        handle.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> handle).join();
      }
    }

    @Override
    public void close() {
      stopAll();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // This JVM is already shutting down; the hook runs anyway.
      }
    }
  }
}
