package io.github.sparkkpca.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.persistence.ModelSignature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signing key from the environment signs the model {@code fit --model-out} writes (in a child
 * JVM, whose environment holds the key), and {@code transform --model} under the same key reads it,
 * under another key refuses it with exit 2 and one line.
 */
class SignedModelCliTest {

  @TempDir Path dir;

  private static final String KEY = "the key of the CLI test";

  @Test
  void aKeyFromTheEnvironmentSignsAndTheSameKeyReads() throws Exception {
    StringBuilder text = new StringBuilder("a,b,c\n");
    Random random = new Random(3);
    for (int i = 0; i < 40; i++) {
      text.append(
          String.format(
              Locale.ROOT,
              "%.6f,%.6f,%.6f\n",
              random.nextGaussian(),
              random.nextGaussian(),
              (i % 3) + random.nextGaussian()));
    }
    Path csv = Files.writeString(dir.resolve("rows.csv"), text.toString(), StandardCharsets.UTF_8);
    Path model = dir.resolve("model");
    List<String> command =
        CliFixture.childCli(
            "-Xmx1g",
            "fit",
            "--input",
            csv.toString(),
            "--k",
            "2",
            "--landmarks",
            "10",
            "--seed",
            "1",
            "--model-out",
            model.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put(ModelSignature.ENV, KEY);
    Process child = builder.start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(5, TimeUnit.MINUTES), output);
    assertEquals(0, child.exitValue(), output);
    assertTrue(Files.exists(model.resolve(ModelSignature.NAME)), output);

    var conf = TestSpark.session().conf();
    try {
      conf.set(ModelSignature.CONF, KEY);
      TestSpark.Result read =
          TestSpark.cli(
              "transform",
              "--model",
              model.toString(),
              "--input",
              csv.toString(),
              "--output",
              dir.resolve("scores").toString());
      assertEquals(0, read.code(), read.toString());
      conf.set(ModelSignature.CONF, "another key");
      TestSpark.Result refused =
          TestSpark.cli(
              "transform",
              "--model",
              model.toString(),
              "--input",
              csv.toString(),
              "--output",
              dir.resolve("refused").toString());
      assertEquals(2, refused.code(), refused.toString());
      List<String> errors =
          refused.errLines().stream().filter(l -> l.startsWith("spark-kpca: error:")).toList();
      assertEquals(1, errors.size(), refused.toString());
      assertTrue(
          errors.get(0).contains(model.toString())
              && errors.get(0).contains("_signature.json does not match _manifest.json"),
          errors.get(0));
    } finally {
      conf.unset(ModelSignature.CONF);
    }
  }
}
