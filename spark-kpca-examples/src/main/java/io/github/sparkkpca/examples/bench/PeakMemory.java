package io.github.sparkkpca.examples.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Peak memory of this JVM: the resident set high-water mark (Linux {@code VmHWM} in {@code
 * /proc/self/status}) and the peak of the Java heap (sum of the heap pools' peak usage).
 *
 * <p>Both can be reset between measurements: the heap pools through {@link
 * MemoryPoolMXBean#resetPeakUsage}, the resident peak by writing 5 to {@code /proc/self/clear_refs}
 * (Linux 4.0 and later). When that is not possible, {@link #rssPeakBytes} is the peak since the
 * process started (see {@link #rssResettable}).
 */
public final class PeakMemory {

  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
  private static boolean rssResettable = true;

  private PeakMemory() {}

  /** Resets both peaks; returns whether the resident peak could be reset. */
  public static synchronized boolean reset() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        pool.resetPeakUsage();
      }
    }
    try {
      Files.writeString(CLEAR_REFS, "5", StandardCharsets.US_ASCII);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      rssResettable = false;
    }
    return rssResettable;
  }

  /** Whether the last {@link #reset} also reset the resident peak. */
  public static synchronized boolean rssResettable() {
    return rssResettable;
  }

  /** VmHWM in bytes, or -1 where /proc/self/status is not available. */
  public static long rssPeakBytes() {
    return statusField("VmHWM:");
  }

  /** VmRSS in bytes, or -1. */
  public static long rssBytes() {
    return statusField("VmRSS:");
  }

  /**
   * Sum of the heap pools' peak used bytes since the last reset (an upper bound of the peak heap
   * use).
   */
  public static long heapPeakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** The heap's maximum size (-Xmx), or -1 if undefined. */
  public static long heapMaxBytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
  }

  /** The 1-minute load average of the machine, or -1 where unavailable. */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /**
   * The live heap while it is open: the largest heap use found right after a garbage collection
   * (the sum over the heap pools of their use after each collection), an upper bound of what the
   * measured work kept reachable and, unlike the pools' peaks, not a record of how full the young
   * generation got between collections. Listens to every collector's notifications.
   */
  public static final class LiveHeap implements AutoCloseable {
    private final java.util.List<javax.management.NotificationEmitter> emitters =
        new java.util.ArrayList<>();
    private final javax.management.NotificationListener listener;
    private final java.util.concurrent.atomic.AtomicLong peak =
        new java.util.concurrent.atomic.AtomicLong(-1);
    private final java.util.concurrent.atomic.AtomicInteger collections =
        new java.util.concurrent.atomic.AtomicInteger();

    /** Starts listening. */
    public LiveHeap() {
      java.util.Set<String> heapPools = new java.util.HashSet<>();
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          heapPools.add(pool.getName());
        }
      }
      listener =
          (notification, handback) -> {
            if (!com.sun.management.GarbageCollectionNotificationInfo
                .GARBAGE_COLLECTION_NOTIFICATION
                .equals(notification.getType())) {
              return;
            }
            var info =
                com.sun.management.GarbageCollectionNotificationInfo.from(
                    (javax.management.openmbean.CompositeData) notification.getUserData());
            long used = 0;
            for (var entry : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
              if (heapPools.contains(entry.getKey())) {
                used += entry.getValue().getUsed();
              }
            }
            collections.incrementAndGet();
            peak.accumulateAndGet(used, Math::max);
          };
      for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (gc instanceof javax.management.NotificationEmitter emitter) {
          emitter.addNotificationListener(listener, null, null);
          emitters.add(emitter);
        }
      }
    }

    /** The largest heap use after a collection so far, in bytes, or -1 before any collection. */
    public long peakBytes() {
      return peak.get();
    }

    /** The collections seen so far. */
    public int collections() {
      return collections.get();
    }

    @Override
    public void close() {
      for (var emitter : emitters) {
        try {
          emitter.removeNotificationListener(listener);
        } catch (javax.management.ListenerNotFoundException e) {
          // already removed
        }
      }
    }
  }

  static long parseStatusField(String status, String field) {
    for (String line : status.split("\n")) {
      if (line.startsWith(field)) {
        String[] parts = line.substring(field.length()).trim().split("\\s+");
        long value = Long.parseLong(parts[0]);
        return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value;
      }
    }
    return -1;
  }

  private static long statusField(String field) {
    try {
      return parseStatusField(Files.readString(STATUS, StandardCharsets.US_ASCII), field);
    } catch (IOException
        | UnsupportedOperationException
        | SecurityException
        | NumberFormatException e) {
      return -1;
    }
  }
}
