package dev.crawler.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A JVM that keeps one partition's state caught up with its records, ten at a time, each take
 * forced to disk and its checkpoint file rewritten, until it is killed: what
 * {@link PartitionStateKillTest} kills mid-take. Exits by itself when its parent's pipe to it closes.
 *
 * <p>Arguments: state folder, bootstrap servers, crawl name, partitions, partition.
 */
public final class PartitionStateChild {
  /** The child's line on stdout once its state is open. */
  static final String READY = "state open";
  /** Records a take: a kill mid-take leaves at most this many queued and not recorded as seen. */
  static final int TAKE = 10;

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    ClusterTopics topics = new ClusterTopics(args[2], Integer.parseInt(args[3]));
    int partition = Integer.parseInt(args[4]);
    Thread watch = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // Nothing is sent; a read of -1 means the parent closed the pipe or died.
        }
      } catch (java.io.IOException e) {
        // the same: no parent
      }
      Runtime.getRuntime().halt(3);
    });
    watch.setDaemon(true);
    watch.start();
    try (PartitionState state = PartitionState.open(dir, partition,
            PartitionFixtures.options(100_000, true).withCheckpointEvery(Duration.ZERO));
        PartitionReplay replay = new PartitionReplay(topics,
            Map.of("bootstrap.servers", args[1], "max.poll.records", TAKE))) {
      System.out.println(READY);
      System.out.flush();
      while (true) {
        replay.catchUp(state);
        Thread.sleep(5);
      }
    }
  }
}
