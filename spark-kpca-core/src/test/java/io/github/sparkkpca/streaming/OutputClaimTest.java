package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35 item 2: the claim of a streaming output is atomic. Threads released together claim one
 * output (or bind one model directory) with different checkpoints: every round exactly one wins,
 * and every other learns the winner's checkpoint.
 */
class OutputClaimTest {

  private static final int THREADS = 6;
  private static final int ROUNDS = 15;

  @TempDir Path dir;

  private final Configuration conf = new Configuration();

  /** Runs {@code task(i)} on THREADS threads released at once; returns their outcomes in order. */
  private static List<Object> race(TaskOf task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CyclicBarrier start = new CyclicBarrier(THREADS);
    try {
      List<Future<Object>> futures = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        int t = i;
        Callable<Object> call =
            () -> {
              start.await();
              try {
                return task.run(t);
              } catch (IllegalArgumentException e) {
                return e;
              }
            };
        futures.add(pool.submit(call));
      }
      List<Object> out = new ArrayList<>();
      for (Future<Object> f : futures) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  interface TaskOf {
    Object run(int thread) throws Exception;
  }

  @Test
  void ofThreadsClaimingOneOutputTogetherExactlyOneWins() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      String output = dir.resolve("out-" + round).toString();
      List<String> checkpoints = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        checkpoints.add(dir.resolve("ckpt-" + round + "-" + t).toString());
      }
      List<Object> owners = race(t -> OutputClaim.take(output, checkpoints.get(t), conf));
      Set<Object> distinct = new HashSet<>(owners);
      assertEquals(1, distinct.size(), "round " + round + ": one owner for all, " + owners);
      OutputClaim.Owner owner = (OutputClaim.Owner) owners.get(0);
      assertEquals(owner, OutputClaim.read(output, conf));
      assertTrue(
          checkpoints.stream().map(c -> "file:" + c).anyMatch(c -> c.equals(owner.checkpoint())),
          owner.toString());
      // The owner's checkpoint claiming again is recognised as the owner.
      String winner =
          checkpoints.get(
              checkpoints.stream().map(c -> "file:" + c).toList().indexOf(owner.checkpoint()));
      assertEquals(owner, OutputClaim.take(output, winner, conf));
    }
  }

  @Test
  void ofThreadsReplacingOneClaimTogetherExactlyOneWins() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      String output = dir.resolve("replaced-" + round).toString();
      OutputClaim.Owner earlier =
          OutputClaim.take(output, dir.resolve("old-" + round).toString(), conf);
      int r = round;
      List<Object> owners =
          race(
              t ->
                  OutputClaim.replace(
                      output, earlier, dir.resolve("new-" + r + "-" + t).toString(), conf));
      OutputClaim.Owner now = OutputClaim.read(output, conf);
      assertTrue(!now.equals(earlier), "the earlier claim was replaced");
      for (Object owner : owners) {
        assertEquals(now, owner, "round " + round + ": every replacer sees the one winner");
      }
    }
  }

  @Test
  void ofStreamsBindingOneModelDirectoryTogetherExactlyOneWins() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      String model = dir.resolve("model-" + round).toString();
      int r = round;
      List<Object> outcomes =
          race(
              t -> {
                new ModelDirectory(model, "exact", Map.of("k", "2"))
                    .bind(dir.resolve("mckpt-" + r + "-" + t).toString(), conf);
                return "bound";
              });
      List<Object> won = outcomes.stream().filter("bound"::equals).toList();
      assertEquals(1, won.size(), "round " + round + ": " + outcomes);
      int winner = outcomes.indexOf("bound");
      String winnerCkpt = "file:" + dir.resolve("mckpt-" + round + "-" + winner);
      for (Object o : outcomes) {
        if (o instanceof IllegalArgumentException e) {
          assertTrue(
              e.getMessage().contains("the checkpoint " + winnerCkpt + ", not "), e.getMessage());
        }
      }
      String marker = Files.readString(Path.of(model, ModelDirectory.MARKER));
      assertTrue(marker.contains(winnerCkpt), marker);
    }
  }
}
