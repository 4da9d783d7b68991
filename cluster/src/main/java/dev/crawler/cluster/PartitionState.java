package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.base.Throwables;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.Partitions;
import dev.crawler.frontier.SyncPolicy;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.intake.SeenThenQueued;
import dev.crawler.stats.CrawlStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's local state on a node, in a folder of its own: the URL-seen filter and exact
 * store ({@code seen/}), the frontier of its queues ({@code frontier/}) and the
 * {@link PartitionCheckpoint} of the topic offsets they reflect ({@code checkpoint}). A view of
 * the partition's records that can always be rebuilt from them.
 *
 * <p>Invariant: the checkpoint never claims more than the state holds. Each take writes the state
 * first (URL-seen and the frontier, durable when they return) and the checkpoint after, so a
 * kill in between leaves the checkpoint behind the state, and the records after it, taken again,
 * are SEEN. While the state is open, the checkpoint's file lags by at most
 * {@link Options#checkpointEvery}'s worth of takes; it is exact once the state is closed.
 * Durable against a killed process; against a power cut too with {@link Options#sync}.
 *
 * <p>A partition's frontier is opened with one partition: the folder already says which partition
 * it is, and a frontier of P partitions would open a database for each of its groups.
 *
 * <p>Not thread-safe for takes: one consumer thread feeds it. Its {@link #frontier} is shared
 * with the node's fetchers, as a {@link Frontier} may be.
 */
public final class PartitionState implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PartitionState.class);
  /** How often a checkpoint that moved is written to its file while the state is open, by default. */
  public static final Duration CHECKPOINT_EVERY = Duration.ofSeconds(1);

  /**
   * How a partition's URL-seen service and frontier are opened, as plain values.
   *
   * @param expectedUrls URLs the partition's first filter is sized for
   * @param falsePositiveRate the filter's target rate
   * @param policy what the filter's "maybe" means
   * @param recentUrls fingerprints remembered in memory to skip store reads
   * @param storeCacheBytes the exact store's block cache
   * @param frontier the frontier's politeness and memory; its partition count is ignored (one)
   * @param sync force every write to disk (power-cut safe) rather than to the log alone (kill -9 safe)
   * @param checkpointEvery how often a moved checkpoint is rewritten while open: a rename a poll
   *     costs the consumer's thread a good part of its time, and a file behind only means records taken again
   */
  public record Options(long expectedUrls, double falsePositiveRate, UrlSeenService.FalsePositivePolicy policy,
      int recentUrls, long storeCacheBytes, FrontierOptions frontier, boolean sync, Duration checkpointEvery) {
    public Options {
      checkArgument(expectedUrls >= 1, "expectedUrls (%s) must be >= 1", expectedUrls);
      checkNotNull(policy, "policy");
      checkNotNull(frontier, "frontier");
      checkArgument(!checkpointEvery.isNegative(), "checkpointEvery (%s) must not be negative", checkpointEvery);
    }

    /** With the checkpoint rewritten every {@link #CHECKPOINT_EVERY}. */
    public Options(long expectedUrls, double falsePositiveRate, UrlSeenService.FalsePositivePolicy policy,
        int recentUrls, long storeCacheBytes, FrontierOptions frontier, boolean sync) {
      this(expectedUrls, falsePositiveRate, policy, recentUrls, storeCacheBytes, frontier, sync, CHECKPOINT_EVERY);
    }

    /** The same options with the checkpoint rewritten every {@code every}. */
    public Options withCheckpointEvery(Duration every) {
      return new Options(expectedUrls, falsePositiveRate, policy, recentUrls, storeCacheBytes, frontier, sync, every);
    }

    UrlSeenService.Options seen(Path dir) {
      return UrlSeenService.Options.builder(dir).expectedUrls(expectedUrls).falsePositiveRate(falsePositiveRate)
          .policy(policy).recentUrls(recentUrls).storeCacheBytes(storeCacheBytes).syncWrites(sync).build();
    }

    FrontierOptions frontierOfOnePartition() {
      return frontier.toBuilder().partitions(1).sync(sync ? SyncPolicy.FSYNC : SyncPolicy.WAL).build();
    }
  }

  private final Path dir;
  private final int partition;
  private final boolean sync;
  private final long checkpointEveryNanos;
  private final UrlSeenService seen;
  private final Frontier frontier;
  private final SeenThenQueued intake;
  private final boolean heldBefore;
  private final DoneElsewhere doneElsewhere;
  private PartitionCheckpoint checkpoint;
  /** The checkpoint in the file, and when it was last written there. */
  private PartitionCheckpoint written;
  private long writtenAt;
  private boolean closed;

  private PartitionState(Path dir, int partition, Options options, UrlSeenService seen, Frontier frontier,
      Optional<PartitionCheckpoint> checkpoint, CrawlStats counts, DoneElsewhere doneElsewhere) {
    this.doneElsewhere = doneElsewhere;
    this.dir = dir;
    this.partition = partition;
    this.sync = options.sync();
    this.checkpointEveryNanos = options.checkpointEvery().toNanos();
    this.seen = seen;
    this.frontier = frontier;
    this.intake = new SeenThenQueued(seen, frontier, counts);
    this.heldBefore = checkpoint.isPresent();
    this.checkpoint = checkpoint.orElse(PartitionCheckpoint.START);
    this.written = this.checkpoint;   // a state never taken writes no file, and opens as new again
    this.writtenAt = System.nanoTime() - checkpointEveryNanos;   // the first take writes it
  }

  /** Opens (or creates) the state of {@code partition} in {@code dir}. */
  public static PartitionState open(Path dir, int partition, Options options) throws IOException {
    return open(dir, partition, options, new CrawlStats());
  }

  /** As {@link #open(Path, int, Options)}, counting the URLs it queues as new into {@code counts} (a node's stats). */
  public static PartitionState open(Path dir, int partition, Options options, CrawlStats counts) throws IOException {
    checkArgument(partition >= 0 && partition < Partitions.MAX, "partition (%s) must be in [0, %s)", partition,
        Partitions.MAX);
    Files.createDirectories(dir);
    Files.deleteIfExists(dir.resolve(PartitionCheckpoint.FILE + ".tmp"));   // a write a kill cut short
    Optional<PartitionCheckpoint> checkpoint = PartitionCheckpoint.read(dir, partition);
    DoneElsewhere elsewhere = DoneElsewhere.open(dir, options.sync());
    UrlSeenService seen = UrlSeenService.openQuietly(options.seen(dir.resolve("seen")));
    try {
      Frontier frontier = Frontier.open(dir.resolve("frontier"), options.frontierOfOnePartition());
      // A line a partition is many on a node of hundreds: the consumer says where each starts, in one.
      log.debug("Partition {}: state in {}, {}", partition, dir,
          checkpoint.map(c -> "continuing from URL offset " + c.urls() + ", done offset " + c.done())
              .orElse("new: to be replayed from the first records"));
      return new PartitionState(dir, partition, options, seen, frontier, checkpoint, counts, elsewhere);
    } catch (RuntimeException e) {
      try {
        seen.close();
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  public int partition() {
    return partition;
  }

  /** Where the state stands; {@link PartitionCheckpoint#START} if it was never written. */
  public PartitionCheckpoint checkpoint() {
    return checkpoint;
  }

  /** Whether a checkpoint was found at open: the partition was held here before, and is not replayed whole. */
  public boolean heldBefore() {
    return heldBefore;
  }

  /**
   * Takes the next URL records of the partition: the URL-seen check, then the frontier offer of
   * the new ones, then the checkpoint.
   *
   * @param nextOffset the offset after the last of them
   * @return how many were new and queued
   */
  public int takeUrls(List<AdmittedUrl> urls, long nextOffset) {
    checkOpen();
    checkNotBehind("URL", nextOffset, checkpoint.urls());
    int queued = intake.take(urls);
    record(checkpoint.withUrls(nextOffset));
    return queued;
  }

  /**
   * Takes the next done records of the partition: their URLs are marked seen, so that a URL
   * record of them read later is not queued (a replay takes the done records first). A done URL
   * already queued here stays queued: the frontier has no removal by URL, so such a URL (one
   * completed by another node while this one did not own the partition) is remembered as
   * {@link #doneElsewhere}, and its lease ended with no fetch.
   *
   * @param nextOffset the offset after the last of them
   */
  public void takeDone(List<DoneRecord> done, long nextOffset) {
    takeDone(done, nextOffset, mayHoldDoneElsewhere());
  }

  /**
   * Whether its frontier may hold URLs that other owners completed while this node did not own
   * the partition: it was held here before and took URL records then. A state that never took
   * one (new, or left during its first catch-up) has nothing queued to skip.
   */
  public boolean mayHoldDoneElsewhere() {
    // The frontier too: a kill can leave URL records taken after the checkpoint file last said none.
    return heldBefore && (checkpoint.urls() > 0 || frontier.stats().queuedUrls() > 0);
  }

  /**
   * As {@link #takeDone(List, long)}; {@code fromElsewhere} false for this node's own
   * completions, read back before the partition leaves, which its frontier has already ended.
   */
  public void takeDone(List<DoneRecord> done, long nextOffset, boolean fromElsewhere) {
    checkOpen();
    checkNotBehind("done", nextOffset, checkpoint.done());
    if (!done.isEmpty()) {
      List<UrlFingerprint> fingerprints = new ArrayList<>(done.size());
      for (DoneRecord d : done) {
        fingerprints.add(d.fingerprint());
      }
      seen.markSeenAll(fingerprints);
      if (fromElsewhere) {
        // Its frontier may hold these queued: remembered before the checkpoint moves past them.
        try {
          doneElsewhere.addAll(fingerprints);
        } catch (IOException e) {
          throw new UncheckedIOException("the URLs done elsewhere of partition " + partition + " in " + dir
              + " could not be written", e);
        }
      }
    }
    record(checkpoint.withDone(nextOffset));
  }

  /** Whether {@code url} was done by another owner while this node did not own the partition: not to be fetched. */
  public boolean doneElsewhere(String url) {
    return doneElsewhere.contains(url);
  }

  /** The partition's queues, for the node's fetchers. */
  public Frontier frontier() {
    return frontier;
  }

  /** The partition's URLs seen. */
  public UrlSeenService seen() {
    return seen;
  }

  /**
   * Moves the checkpoint; its file is rewritten at most every {@link Options#checkpointEvery} and
   * at close. A file behind the state is allowed: its records are taken again, as SEEN.
   */
  private void record(PartitionCheckpoint next) {
    checkpoint = next;
    long now = System.nanoTime();
    if (now - writtenAt >= checkpointEveryNanos) {
      writeCheckpoint();
      writtenAt = now;
    }
  }

  private void writeCheckpoint() {
    if (checkpoint.equals(written)) {
      return;
    }
    try {
      PartitionCheckpoint.write(dir, partition, checkpoint, sync);
    } catch (IOException e) {
      throw new UncheckedIOException("the checkpoint of partition " + partition + " in " + dir
          + " could not be written", e);
    }
    written = checkpoint;
  }

  private void checkNotBehind(String topic, long next, long current) {
    checkArgument(next >= current, "partition %s: next %s offset (%s) is before the checkpoint's (%s)", partition,
        topic, next, current);
  }

  private void checkOpen() {
    checkState(!closed, "the state of partition %s is closed", partition);
  }

  /**
   * Closes the frontier, then URL-seen (which saves its filter), then writes the checkpoint where
   * it stands: each take made the state durable when it returned, so the checkpoint is written
   * even when a close before it failed. The first failure is thrown, the others suppressed in it.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    Exception failure = null;
    try {
      frontier.close();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      seen.close();
    } catch (IOException | RuntimeException e) {
      failure = firstOf(failure, e);
    }
    try {
      writeCheckpoint();
    } catch (RuntimeException e) {
      failure = firstOf(failure, e);
    }
    if (failure != null) {
      Throwables.throwIfInstanceOf(failure, IOException.class);
      Throwables.throwIfUnchecked(failure);
    }
  }

  private static Exception firstOf(Exception first, Exception next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
