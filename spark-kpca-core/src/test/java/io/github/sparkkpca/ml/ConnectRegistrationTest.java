package io.github.sparkkpca.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.evaluation.ReconstructionErrorEvaluator;
import io.github.sparkkpca.testing.LocalSpark;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.evaluation.Evaluator;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Spark Connect's ML server needs from a third-party stage (Spark 4's {@code MLUtils}): a
 * {@code ServiceLoader} registration per estimator, model and evaluator, a public no-argument
 * constructor (the loader's), a public {@code (String uid)} constructor (the server builds stages
 * with it) and a static {@code load(String)} (the server loads saved stages with it); and the
 * export bundle a model writes beside itself when the writer option {@code export} is true, which
 * is how a Connect client reads the eigenvalues and landmarks the server's attribute allowlist
 * hides.
 */
class ConnectRegistrationTest {

  @TempDir Path dir;

  private static final String PREFIX = "io.github.sparkkpca.";

  /**
   * Our classes registered for {@code service}, by name, as the server's ServiceLoader sees them.
   */
  private static Set<String> registered(Class<?> service) {
    Set<String> names = new TreeSet<>();
    ServiceLoader.load(service, ConnectRegistrationTest.class.getClassLoader()).stream()
        .map(p -> p.type().getName())
        .filter(n -> n.startsWith(PREFIX))
        .forEach(names::add);
    return names;
  }

  @Test
  void everyPublicStageIsRegisteredWithTheConstructorsAndLoaderConnectUses() throws Exception {
    assertEquals(
        new TreeSet<>(
            List.of(
                KernelPCA.class.getName(),
                NystromKernelPCA.class.getName(),
                RandomFeatureKernelPCA.class.getName(),
                KernelPCARegressor.class.getName(),
                RelevantDimensionEstimator.class.getName())),
        registered(Estimator.class));
    assertEquals(
        new TreeSet<>(
            List.of(
                KernelPCAModel.class.getName(),
                NystromKernelPCAModel.class.getName(),
                RandomFeatureKernelPCAModel.class.getName(),
                KernelPCARegressionModel.class.getName())),
        registered(Transformer.class));
    assertEquals(Set.of(ReconstructionErrorEvaluator.class.getName()), registered(Evaluator.class));

    for (Class<?> service : List.of(Estimator.class, Transformer.class, Evaluator.class)) {
      for (String name : registered(service)) {
        Class<?> type = Class.forName(name);
        assertTrue(service.isAssignableFrom(type), name + " is a " + service.getSimpleName());
        Params byUid = (Params) type.getConstructor(String.class).newInstance("connect_uid_1");
        assertEquals("connect_uid_1", byUid.uid(), name + "(String uid)");
        Params fresh = (Params) type.getConstructor().newInstance();
        assertTrue(fresh.uid().contains("_"), name + "() gives a random uid: " + fresh.uid());
        Method load = type.getMethod("load", String.class);
        assertTrue(Modifier.isStatic(load.getModifiers()), name + ".load(String) is static");
        assertTrue(type.isAssignableFrom(load.getReturnType()), name + ".load returns the class");
      }
    }
  }

  @Test
  void aModelWithoutFittedStateRefusesClearly() {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(20, 3, 1), 1);
    NystromKernelPCAModel empty = new NystromKernelPCAModel("nystrom_empty");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> empty.transform(df));
    assertTrue(e.getMessage().contains("nystrom_empty has no fitted state"), e.getMessage());
    assertEquals("NystromKernelPCAModel: uid=nystrom_empty, not fitted", empty.toString());
    KernelPCARegressionModel regression = new KernelPCARegressionModel("regression_empty");
    e = assertThrows(IllegalStateException.class, () -> regression.transform(df));
    assertTrue(e.getMessage().contains("regression_empty has no fitted state"), e.getMessage());
    assertThrows(
        IllegalStateException.class,
        () -> new KernelPCAModel("exact_empty").write().save(dir.resolve("x").toString()));
  }

  @Test
  void theExportOptionWritesTheSpectrumAndLandmarksBesideTheModel() throws Exception {
    Dataset<Row> df = LocalSpark.frame(LocalSpark.clusters(90, 4, 2), 2);
    NystromKernelPCAModel model =
        new NystromKernelPCA().setK(3).setNumLandmarks(20).setSeed(4).fit(df);
    String path = dir.resolve("model").toString();
    model.write().option("export", "true").save(path);

    JsonNode json = new ObjectMapper().readTree(Path.of(path, "export", "model.json").toFile());
    assertArrayEquals(model.eigenvalues().toArray(), doubles(json.get("eigenvalues")), 0);
    assertArrayEquals(
        model.explainedVariance().toArray(), doubles(json.get("explainedVariance")), 0);
    assertEquals(model.totalVariance(), json.get("totalVariance").asDouble(), 0);
    assertEquals(20, Files.readAllLines(Path.of(path, "export", "landmarks.csv")).size());
    // The bundle sits beside the saved model, which loads and scores as without it.
    NystromKernelPCAModel loaded = NystromKernelPCAModel.load(path);
    assertArrayEquals(model.eigenvalues().toArray(), loaded.eigenvalues().toArray(), 0);

    String plain = dir.resolve("plain").toString();
    model.write().option("export", "false").save(plain);
    assertTrue(Files.exists(Path.of(plain, "metadata")));
    assertTrue(Files.notExists(Path.of(plain, "export")), "export=false writes no bundle");

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.write().option("exprot", "true").save(dir.resolve("typo").toString()));
    assertTrue(e.getMessage().contains("Unknown writer option 'exprot'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.write().option("export", "yes").save(dir.resolve("bad").toString()));
    assertTrue(e.getMessage().contains("export must be true or false, got 'yes'"), e.getMessage());
  }

  private static double[] doubles(JsonNode array) {
    double[] out = new double[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble();
    }
    return out;
  }
}
