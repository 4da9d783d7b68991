package dev.crawler.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One newly given partition's done records, read up to their end into its state on the node's
 * catch-up thread, beside the consumer's poll loop rather than in the group's assignment
 * callback: a partition of millions of done records takes minutes, and a callback that long
 * makes the node miss its poll interval and leave the group. The partition's URL records wait
 * ({@link #caughtUp}), since a replay must see a URL's completion before its URL record.
 *
 * <p>A read that fails (the brokers out of reach) is tried again from where the state's
 * checkpoint stands. {@link #cancel} stops it for a partition that leaves before it is done.
 */
final class DoneCatchUp {
  private static final Logger log = LoggerFactory.getLogger(DoneCatchUp.class);
  private static final long FIRST_RETRY_MILLIS = 500;
  private static final long LONGEST_RETRY_MILLIS = 10_000;
  /** A catch-up that lasts longer than this is worth a line in the log. */
  private static final Duration WORTH_SAYING = Duration.ofSeconds(1);

  private final PartitionState state;
  private final CompletableFuture<Void> caughtUp = new CompletableFuture<>();
  private volatile boolean cancelled;
  /** Whether {@link #run} reads into the state now; guarded by this. */
  private boolean running;

  DoneCatchUp(PartitionState state) {
    this.state = state;
  }

  /**
   * Completes once every done record the partition had when the catch-up began is in its state;
   * never if it is cancelled first. Never completes exceptionally.
   */
  CompletableFuture<Void> caughtUp() {
    return caughtUp;
  }

  /** Reads the done records with {@code replay} (on the catch-up thread), trying again until done or cancelled. */
  void run(PartitionReplay replay) {
    synchronized (this) {
      if (cancelled) {
        return;
      }
      running = true;
    }
    try {
      long started = System.nanoTime();
      long retryMillis = FIRST_RETRY_MILLIS;
      boolean warned = false;
      while (!cancelled) {
        try {
          long read = replay.catchUpDone(state, () -> cancelled);
          if (!cancelled) {
            sayIfLong(read, started);
            caughtUp.complete(null);
          }
          return;
        } catch (RuntimeException e) {
          if (!warned) {
            warned = true;
            log.warn("Partition {}: its done records could not be read ({}); it is tried again, and the partition "
                + "fetches nothing until then. If this lasts, check that this node reaches the brokers",
                state.partition(), e.getMessage());
          }
          try {
            synchronized (this) {
              if (!cancelled) {
                wait(retryMillis);   // a cancel wakes it
              }
            }
          } catch (InterruptedException interrupted) {
            return;
          }
          retryMillis = Math.min(LONGEST_RETRY_MILLIS, retryMillis * 2);
        }
      }
    } finally {
      synchronized (this) {
        running = false;
        notifyAll();
      }
    }
  }

  private void sayIfLong(long read, long started) {
    long took = System.nanoTime() - started;
    if (took >= WORTH_SAYING.toNanos()) {
      log.info("Partition {}: read its {} done record(s) in {} ms; its URL records follow", state.partition(), read,
          TimeUnit.NANOSECONDS.toMillis(took));
    }
  }

  /**
   * Stops the catch-up, and returns once it no longer reads into the state (within one poll of
   * the replay's): the state may then be closed.
   */
  void cancel() {
    cancelled = true;
    synchronized (this) {
      notifyAll();
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
    return caughtUp.isDone();
  }
}
