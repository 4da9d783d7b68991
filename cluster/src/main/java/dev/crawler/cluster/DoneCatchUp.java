package dev.crawler.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One newly given partition's done records, read up to their end into its state on the node's
 * catch-up thread, beside the consumer's poll loop rather than in the group's assignment
 * callback: a partition of millions of done records takes minutes, and a callback that long
 * makes the node miss its poll interval and leave the group. The partition's URL records wait
 * ({@link #caughtUp}), since a replay must see a URL's completion before its URL record.
 *
 * <p>A read the brokers let down (a timeout, a leader moving) is tried again later from where
 * the state's checkpoint stands, the thread serving other partitions meanwhile. Any other
 * failure (a record it cannot read, a full disk) fails {@link #caughtUp}: the node cannot own
 * the partition, and stops so that the group gives it to another. {@link #cancel} stops it for a
 * partition that leaves first.
 */
final class DoneCatchUp {
  private static final Logger log = LoggerFactory.getLogger(DoneCatchUp.class);
  private static final long FIRST_RETRY_MILLIS = 500;
  private static final long LONGEST_RETRY_MILLIS = 10_000;
  /** A catch-up that lasts longer than this is worth a line in the log. */
  private static final Duration WORTH_SAYING = Duration.ofSeconds(1);

  private final PartitionState state;
  private final PartitionReplay replay;
  private final ScheduledExecutorService thread;
  private final CompletableFuture<Void> caughtUp = new CompletableFuture<>();
  private final long started = System.nanoTime();
  private volatile boolean cancelled;
  /** Whether a try reads into the state now; guarded by this. */
  private boolean running;
  /** The catch-up thread's only. */
  private long retryMillis = FIRST_RETRY_MILLIS;
  private boolean warned;

  /**
   * @param replay reads the done records; used on {@code thread} only
   * @param thread the node's catch-up thread, which runs each try
   */
  DoneCatchUp(PartitionState state, PartitionReplay replay, ScheduledExecutorService thread) {
    this.state = state;
    this.replay = replay;
    this.thread = thread;
  }

  /** Starts the first try on the catch-up thread. */
  void start() {
    schedule(0);
  }

  /**
   * Completes once every done record the partition had when the last try began is in its state;
   * never if it is cancelled first; exceptionally if it cannot be read (not a passing failure of
   * the brokers').
   */
  CompletableFuture<Void> caughtUp() {
    return caughtUp;
  }

  private void schedule(long delayMillis) {
    try {
      thread.schedule(this::attempt, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The node is closing: every catch-up is cancelled.
    }
  }

  private void attempt() {
    synchronized (this) {
      if (cancelled) {
        return;
      }
      running = true;
    }
    try {
      long read = replay.catchUpDone(state, () -> cancelled);
      if (!cancelled) {
        sayIfLong(read);
        caughtUp.complete(null);
      }
    } catch (RetriableException e) {
      if (!cancelled) {
        tryAgainLater(e);
      }
    } catch (RuntimeException | Error e) {
      if (!cancelled) {
        caughtUp.completeExceptionally(e);
      }
    } finally {
      synchronized (this) {
        running = false;
        notifyAll();
      }
    }
  }

  private void tryAgainLater(RetriableException e) {
    if (!warned) {
      warned = true;
      log.warn("Partition {}: its done records could not be read ({}); it is tried again, and the partition fetches "
          + "nothing until then. If this lasts, check that this node reaches the brokers", state.partition(),
          e.getMessage());
    }
    schedule(retryMillis);
    retryMillis = Math.min(LONGEST_RETRY_MILLIS, retryMillis * 2);
  }

  private void sayIfLong(long read) {
    long took = System.nanoTime() - started;
    if (took >= WORTH_SAYING.toNanos()) {
      log.info("Partition {}: read its {} done record(s) in {} ms; its URL records follow", state.partition(), read,
          TimeUnit.NANOSECONDS.toMillis(took));
    }
  }

  /**
   * Stops the catch-up, and returns once it no longer reads into the state: at once between two
   * tries, else within the try's patience for the brokers. The state may then be closed.
   */
  void cancel() {
    cancelled = true;
    synchronized (this) {
      boolean interrupted = false;
      while (running) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether every done record it set out to read is in the state. */
  boolean done() {
    return caughtUp.isDone() && !caughtUp.isCompletedExceptionally();
  }
}
