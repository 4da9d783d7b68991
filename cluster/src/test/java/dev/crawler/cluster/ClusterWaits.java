package dev.crawler.cluster;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** Waits on a crawl's group as the brokers see it, for tests whose nodes are not all in this JVM. */
final class ClusterWaits {
  private ClusterWaits() {}

  /** Until {@code nodes} nodes own every partition, each at least one, the same for a second. */
  static Map<String, List<Integer>> awaitOwners(ClusterTopics topics, String bootstrapServers, int nodes,
      Duration timeout) throws Exception {
    Map<String, Object> clients = Map.of("bootstrap.servers", bootstrapServers);
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, List<Integer>> last = Map.of();
    long sameSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      ClusterStatus.Crawl status;
      try {
        status = ClusterStatus.read(topics, clients, Duration.ofSeconds(10));
      } catch (ExecutionException e) {
        Thread.sleep(250);   // the topics are not made yet: the first node makes them as it joins
        continue;
      }
      Map<String, List<Integer>> owners = status.owners();
      boolean whole = owners.size() == nodes && status.partitions().stream().noneMatch(p -> p.owner().isEmpty());
      if (!owners.equals(last)) {
        last = owners;
        sameSince = System.nanoTime();
      } else if (whole && System.nanoTime() - sameSince > Duration.ofSeconds(1).toNanos()) {
        return owners;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the group did not settle on " + nodes + " nodes in " + timeout.toSeconds() + " s: " + last
        + consumerThreads());
  }

  /**
   * Where the group's consumers of this JVM are: a hand-over that does not end shows there, and a
   * CI run keeps only a failure's message.
   */
  private static String consumerThreads() {
    StringBuilder where = new StringBuilder();
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      if (thread.getName().startsWith("partitions-")) {
        where.append("\n").append(thread.getName()).append(" (").append(thread.getState()).append("):");
        for (int i = 0; i < Math.min(stack.length, 25); i++) {
          where.append("\n    at ").append(stack[i]);
        }
      }
    });
    return where.toString() + everyThread();
  }

  /**
   * Every thread of this JVM, virtual ones too (a worker or a completion is one), as the JDK's
   * thread dump writes them: what a stall waits on, when a test's wait passes its bound.
   */
  static String everyThread() {
    try {
      Path file = Files.createTempDirectory("threads").resolve("dump.txt");
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .dumpThreads(file.toString(), ThreadDumpFormat.TEXT_PLAIN);
      return "\nevery thread (" + file + "):\n" + Files.readString(file);
    } catch (IOException | RuntimeException e) {
      return "\n(no thread dump: " + e + ")";
    }
  }
}
