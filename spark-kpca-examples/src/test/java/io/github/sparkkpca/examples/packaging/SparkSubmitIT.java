package io.github.sparkkpca.examples.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.DocPages;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code spark-submit} command, run as written against the packaged (shaded) examples
 * jar, after {@code package} (Maven Failsafe). Spark's own launcher class {@code
 * org.apache.spark.deploy.SparkSubmit} stands in for the {@code spark-submit} script: the child
 * JVM's class path holds only Spark and its dependencies (the {@code provided} scope), so the jar
 * must bring the library and its shaded CLI and plotting dependencies itself, as on a cluster. Only
 * the model directory is redirected to a temporary one.
 */
class SparkSubmitIT {

  @TempDir Path dir;

  @Test
  void readmeSparkSubmitCommandRunsTheShadedJar() throws IOException, InterruptedException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> command =
        readmeCommand(Files.readString(root.resolve("docs/guides/command-line.md")));
    assertEquals("spark-submit", command.get(0), command::toString);
    String readmeJar = command.stream().filter(a -> a.endsWith(".jar")).findFirst().orElseThrow();
    // The README names the default (Scala 2.13) build's jar; a -P spark-3.5 build runs the same
    // command on its
    // _2.12 jar.
    Path jar =
        root.resolve(
            readmeJar.replace("_2.13-", "_" + System.getProperty("scala.binary.version") + "-"));
    assertEquals(
        builtJar(),
        jar,
        "The command-line guide's spark-submit command names "
            + readmeJar
            + ", not the jar this build makes");
    assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn package` first");
    Path model = dir.resolve("model");
    Path plots = dir.resolve("plots");

    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(Arrays.asList(System.getProperty("spark.jvm.opens", "").trim().split("\\s+")));
    java.add("-Xmx2g");
    java.add("-cp");
    java.add(Files.readString(Path.of("target", "classpath.txt")).trim());
    java.add("org.apache.spark.deploy.SparkSubmit");
    for (int i = 1; i < command.size(); i++) {
      String arg = command.get(i);
      java.add(arg);
      if ((arg.equals("--model-out") || arg.equals("--plots")) && i + 1 < command.size()) {
        java.add((arg.equals("--model-out") ? model : plots).toString());
        i++;
      }
    }
    java.removeIf(String::isEmpty);
    Path log = dir.resolve("spark-submit.log");
    Process process =
        new ProcessBuilder(java)
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean finished = process.waitFor(10, TimeUnit.MINUTES);
    if (!finished) {
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(finished, "spark-submit did not finish in 10 minutes:\n" + output);
    assertEquals(0, process.exitValue(), () -> String.join(" ", java) + "\n" + output);
    assertTrue(output.contains("cumulative explained variance ratio"), output);
    assertTrue(Files.isDirectory(model.resolve("metadata")), "no model saved:\n" + output);
    if (command.contains("--plots")) {
      assertTrue(Files.isRegularFile(plots.resolve("embedding.png")), "no charts:\n" + output);
    }
  }

  /** {@code --version} of the packaged jar reads the version from the jar's Maven properties. */
  @Test
  void packagedJarReportsItsVersion() throws IOException, InterruptedException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.add("-cp");
    java.add(
        builtJar()
            + File.pathSeparator
            + Files.readString(Path.of("target", "classpath.txt")).trim());
    java.add("io.github.sparkkpca.examples.cli.SparkKpcaCli");
    java.add("--version");
    Process process = new ProcessBuilder(java).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), output);
    assertEquals(0, process.exitValue(), output);
    assertTrue(
        output.contains("spark-kpca " + System.getProperty("project.version") + "\n"), output);
  }

  /**
   * The shaded jar this build packaged (target/&lt;artifactId&gt;-&lt;version&gt;.jar), from Maven.
   */
  static Path builtJar() {
    return Path.of(System.getProperty("examples.jar")).toAbsolutePath().normalize();
  }

  /**
   * The first {@code spark-submit} command of the command-line guide's cluster section
   * (docs/guides/command-line.md), its lines joined.
   */
  static List<String> readmeCommand(String readme) {
    StringBuilder text = new StringBuilder();
    for (DocPages.Block block :
        DocPages.blocks(readme, "## Run on a cluster: spark-submit", "bash")) {
      // The line that starts with spark-submit: its index in "\n" + code is its offset in code.
      int start = ("\n" + block.code()).indexOf("\nspark-submit ");
      if (start < 0) {
        continue;
      }
      for (String line : block.code().substring(start).split("\n")) {
        String trimmed = line.strip();
        boolean continued = trimmed.endsWith("\\");
        text.append(continued ? trimmed.substring(0, trimmed.length() - 1) : trimmed).append(' ');
        if (!continued) {
          break;
        }
      }
      break;
    }
    assertTrue(
        text.length() > 0, "the command-line guide's cluster section has no spark-submit command");
    List<String> args = new ArrayList<>();
    for (String token : text.toString().trim().split("\\s+")) {
      args.add(
          token.length() >= 2 && token.startsWith("'") && token.endsWith("'")
              ? token.substring(1, token.length() - 1)
              : token);
    }
    return args;
  }
}
