package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkState;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.stats.CrawlStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link PartitionOwner}: the {@link PartitionState} of each partition it owns, in
 * {@code <node-dir>/partitions/<p>/}. A partition given to it is opened there, then brought up
 * to its done records on the node's catch-up thread ({@link DoneCatchUp}), so that the URL
 * records the consumer feeds it once it is {@link #ready} skip what is done; a partition that
 * leaves is closed.
 *
 * <p>A partition's folder stays when it leaves: given back later, it continues from its
 * checkpoint rather than replay the whole partition.
 */
public final class PartitionStates implements PartitionOwner, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PartitionStates.class);
  /**
   * How long a leaving partition waits for the brokers to read its own done records back: its
   * hand-over must end well within the group's rebalance timeout, brokers gone or not.
   */
  private static final Duration LEAVING_PATIENCE = Duration.ofSeconds(15);
  /**
   * How long a catch-up waits for the brokers before it tries again: also the longest a partition
   * that leaves waits for its catch-up to stop.
   */
  private static final Duration CATCH_UP_PATIENCE = Duration.ofSeconds(5);

  private final Path nodeDir;
  private final PartitionState.Options options;
  /** Reads a leaving partition's own done records back, on the consumer's thread. */
  private final PartitionReplay leaving;
  /** Reads a given partition's done records, on the catch-up thread. */
  private final PartitionReplay given;
  private final ScheduledThreadPoolExecutor catchUpThread;
  private final CrawlStats counts;
  /** Written by the consumer's thread; read by the node's fetchers. */
  private final Map<Integer, PartitionState> owned = new ConcurrentHashMap<>();
  private final Map<Integer, DoneCatchUp> catchUps = new ConcurrentHashMap<>();
  /** Whether the partitions' URL-seen was described in the log (once a node: they are all alike); the consumer's thread only. */
  private boolean described;
  /** Set while the group is not heard: a leaving partition then reads nothing back (the brokers are out of reach). */
  private volatile boolean groupSilent;

  /** Reads the crawl's topics with {@code clients} (the bootstrap servers and whatever else the crawl sets). */
  public PartitionStates(Path nodeDir, PartitionState.Options options, ClusterTopics topics,
      Map<String, Object> clients) {
    this(nodeDir, options, topics, clients, new CrawlStats());
  }

  /** As above, counting the URLs its partitions queue as new into {@code counts} (the node's stats line). */
  public PartitionStates(Path nodeDir, PartitionState.Options options, ClusterTopics topics,
      Map<String, Object> clients, CrawlStats counts) {
    this.counts = counts;
    this.nodeDir = nodeDir;
    this.options = options;
    this.leaving = new PartitionReplay(topics, clients, LEAVING_PATIENCE);
    try {
      this.given = new PartitionReplay(topics, clients, CATCH_UP_PATIENCE);
    } catch (RuntimeException e) {
      leaving.close();
      throw e;
    }
    this.catchUpThread = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name("catch-up").daemon().factory());
    // A close drops the tries waiting their turn: each belongs to a catch-up cancelled by then.
    catchUpThread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** The folder of {@code partition}'s state. */
  public Path folderOf(int partition) {
    return nodeDir.resolve("partitions").resolve(Integer.toString(partition));
  }

  /** The state of {@code partition} if this node owns it now. */
  public Optional<PartitionState> state(int partition) {
    return Optional.ofNullable(owned.get(partition));
  }

  /** Opens the partition's state; its done records are read next, on the catch-up thread. */
  @Override
  public OptionalLong assigned(int partition) {
    checkState(!owned.containsKey(partition), "partition %s assigned twice without a revocation", partition);
    PartitionState state;
    try {
      state = PartitionState.open(folderOf(partition), partition, options, counts);
    } catch (IOException e) {
      throw new UncheckedIOException("the state of partition " + partition + " could not be opened", e);
    }
    if (!described) {
      described = true;
      log.info("Each partition's {}", state.seen().describe());
    }
    DoneCatchUp catchUp = new DoneCatchUp(state, given, catchUpThread);
    owned.put(partition, state);
    catchUps.put(partition, catchUp);
    catchUp.start();
    return state.heldBefore() ? OptionalLong.of(state.checkpoint().urls()) : OptionalLong.empty();
  }

  /** Once its done records are read; exceptionally if they cannot be (not a passing failure of the brokers'). */
  @Override
  public CompletableFuture<Void> ready(int partition) {
    DoneCatchUp catchUp = catchUps.get(partition);
    checkState(catchUp != null, "partition %s is not this node's", partition);
    return catchUp.caughtUp();
  }

  @Override
  public void take(int partition, List<AdmittedUrl> urls, long nextOffset) {
    PartitionState state = owned.get(partition);
    checkState(state != null, "URLs of partition %s, which this node does not own", partition);
    state.takeUrls(urls, nextOffset);
  }

  /** Reads its own done records back first (flushed by then), so its checkpoint is at the done topic's end. */
  @Override
  public void revoked(int partition) {
    PartitionState state = owned.get(partition);
    DoneCatchUp catchUp = catchUps.get(partition);
    if (catchUp != null) {
      catchUp.cancel();
    }
    // A partition that leaves before its catch-up ended fetched nothing here: none of its done records are this node's.
    if (state != null && catchUp != null && catchUp.done()) {
      try {
        leaving.catchUpOwnDone(state, () -> groupSilent);
      } catch (RuntimeException e) {
        // Its next return reads them then, and keeps them as done elsewhere: a few bytes each.
        log.warn("Partition {}: its done records could not be read back before it left: {}", partition, e.toString());
      }
    }
    release(partition);
  }

  @Override
  public void groupSilent(boolean silent) {
    groupSilent = silent;
  }

  /** Closed as a revoked one: its checkpoint holds what it took, and nothing is committed after. */
  @Override
  public void lost(int partition) {
    release(partition);
  }

  private void release(int partition) {
    DoneCatchUp catchUp = catchUps.remove(partition);
    if (catchUp != null) {
      catchUp.cancel();   // before the close: it reads into the state
    }
    PartitionState state = owned.remove(partition);
    if (state == null) {
      return;
    }
    try {
      state.close();
    } catch (IOException | RuntimeException e) {
      // Its next open rebuilds the filter from the exact store, and a checkpoint behind its state is taken again.
      log.warn("Partition {}: its state did not close cleanly: {}", partition, e.toString());
    }
  }

  /** Closes every owned partition's state, then the catch-up thread and the replays' consumers. */
  @Override
  public void close() {
    try {
      for (int partition : new TreeMap<>(owned).keySet()) {
        release(partition);
      }
    } finally {
      // Every catch-up was cancelled above. The catch-up thread closes its own consumer, after the
      // try it may be in: a consumer closed from another thread while in use throws.
      catchUpThread.execute(given::close);
      catchUpThread.shutdown();
      try {
        if (!catchUpThread.awaitTermination(30, TimeUnit.SECONDS)) {
          log.warn("The catch-up thread did not end within 30 s; its consumer is left to the JVM's exit");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        leaving.close();
      }
    }
  }
}
