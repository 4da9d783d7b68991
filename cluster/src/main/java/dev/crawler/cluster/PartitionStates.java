package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkState;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.stats.CrawlStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link PartitionOwner}: the {@link PartitionState} of each partition it owns, in
 * {@code <node-dir>/partitions/<p>/}. A partition given to it is opened there and first brought
 * up to its done records ({@link PartitionReplay#catchUpDone}), so that the URL records the
 * consumer then feeds it skip what is done; a partition that leaves is closed.
 *
 * <p>A partition's folder stays when it leaves: given back later, it continues from its
 * checkpoint rather than replay the whole partition.
 */
public final class PartitionStates implements PartitionOwner, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PartitionStates.class);

  private final Path nodeDir;
  private final PartitionState.Options options;
  private final PartitionReplay replay;
  private final CrawlStats counts;
  /** Written by the consumer's thread; read by the node's fetchers. */
  private final Map<Integer, PartitionState> owned = new ConcurrentHashMap<>();

  /** @param replay reads the done records of a partition given to this node; closed with it */
  public PartitionStates(Path nodeDir, PartitionState.Options options, PartitionReplay replay) {
    this(nodeDir, options, replay, new CrawlStats());
  }

  /** As above, counting the URLs its partitions queue as new into {@code counts} (the node's stats line). */
  public PartitionStates(Path nodeDir, PartitionState.Options options, PartitionReplay replay, CrawlStats counts) {
    this.counts = counts;
    this.nodeDir = nodeDir;
    this.options = options;
    this.replay = replay;
  }

  /** The folder of {@code partition}'s state. */
  public Path folderOf(int partition) {
    return nodeDir.resolve("partitions").resolve(Integer.toString(partition));
  }

  /** The state of {@code partition} if this node owns it now. */
  public Optional<PartitionState> state(int partition) {
    return Optional.ofNullable(owned.get(partition));
  }

  @Override
  public OptionalLong assigned(int partition) {
    checkState(!owned.containsKey(partition), "partition %s assigned twice without a revocation", partition);
    PartitionState state;
    try {
      state = PartitionState.open(folderOf(partition), partition, options, counts);
    } catch (IOException e) {
      throw new UncheckedIOException("the state of partition " + partition + " could not be opened", e);
    }
    try {
      replay.catchUpDone(state);
    } catch (RuntimeException e) {
      closeQuietly(state, e);
      throw e;
    }
    owned.put(partition, state);
    return state.heldBefore() ? OptionalLong.of(state.checkpoint().urls()) : OptionalLong.empty();
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
    if (state != null) {
      try {
        replay.catchUpOwnDone(state);
      } catch (RuntimeException e) {
        // Its next return reads them then, and keeps them as done elsewhere: a few bytes each.
        log.warn("Partition {}: its done records could not be read back before it left: {}", partition, e.toString());
      }
    }
    release(partition);
  }

  /** Closed as a revoked one: its checkpoint holds what it took, and nothing is committed after. */
  @Override
  public void lost(int partition) {
    release(partition);
  }

  private void release(int partition) {
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

  private static void closeQuietly(PartitionState state, Exception cause) {
    try {
      state.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /** Closes every owned partition's state, then the replay's consumer. */
  @Override
  public void close() {
    try {
      for (int partition : new TreeMap<>(owned).keySet()) {
        release(partition);
      }
    } finally {
      replay.close();
    }
  }
}
