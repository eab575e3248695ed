package io.github.sparkkpca.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42 item 2: one running query per checkpoint. A second lock of a held checkpoint, from this
 * JVM or another process, is refused naming the holder's pid; a holder killed with SIGKILL leaves
 * no stale lock. No Spark: a plain child JVM holds the lock.
 */
class CheckpointLockTest {

  @TempDir Path dir;

  /** A child JVM's entry point: locks the checkpoint {@code args[0]}, says so, and waits. */
  public static void main(String[] args) throws Exception {
    CheckpointLock.acquire(args[0], new Configuration());
    System.out.println("locked");
    System.out.flush();
    Thread.sleep(TimeUnit.MINUTES.toMillis(5));
  }

  @Test
  void aHeldCheckpointIsRefusedNamingTheHolderAndReleasedOnClose() throws Exception {
    String checkpoint = dir.resolve("ckpt").toString();
    Configuration conf = new Configuration();
    try (CheckpointLock held = CheckpointLock.acquire(checkpoint, conf)) {
      CheckpointLock.Held e =
          assertThrows(CheckpointLock.Held.class, () -> CheckpointLock.acquire(checkpoint, conf));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "The checkpoint "
                      + checkpoint
                      + " is in use by another running query (pid "
                      + ProcessHandle.current().pid()
                      + " on host "),
          e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
    }
    CheckpointLock.acquire(checkpoint, conf).close();
  }

  @Test
  void anotherProcessIsRefusedAndItsKillLeavesNoStaleLock() throws Exception {
    String checkpoint = dir.resolve("ckpt").toString();
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                CheckpointLockTest.class.getName(),
                checkpoint)
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.equals("locked")) {
        // the child's log lines
      }
      assertEquals("locked", line, "the child JVM did not lock the checkpoint");
      CheckpointLock.Held e =
          assertThrows(
              CheckpointLock.Held.class,
              () -> CheckpointLock.acquire(checkpoint, new Configuration()));
      assertTrue(e.holder().startsWith("pid " + child.pid() + " on host "), e.getMessage());
      child.destroyForcibly();
      assertTrue(child.waitFor(1, TimeUnit.MINUTES));
    } finally {
      child.destroyForcibly();
    }
    // The operating system released the dead process's lock: a restart takes it.
    CheckpointLock.acquire(checkpoint, new Configuration()).close();
  }
}
