package dev.crawler.crawl;

import dev.crawler.config.CrawlConfig;
import dev.crawler.frontier.HostQueues;
import dev.crawler.frontier.Lease;
import dev.crawler.stats.StatsSnapshot;
import dev.crawler.store.StorageFailure;
import dev.crawler.visit.VisitPipeline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl: its workers, which take leases from the frontier and run each through the visit's
 * stages, and how it stops. Its parts are built and closed by {@link CrawlAssembly}.
 *
 * <pre>{@code
 * try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW, CrawlEnvironment.standard())) {
 *   StopReason why = crawl.run();
 * }
 * }</pre>
 *
 * Parts are closed in reverse order of opening; the lock on the crawl folder is released last.
 */
public final class Crawl implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Crawl.class);
  /** How long a stop waits for fetches in flight before it cuts them short. */
  static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final Duration POLL = Duration.ofMillis(200);

  /** Whether the crawl folder must be new or must hold a crawl to continue. */
  public enum Start { NEW, RESUME }

  private final CrawlAssembly parts;
  private final CrawlDirectory dir;
  private final HostQueues frontier;
  private final VisitPipeline visits;
  private final StopSignal stop;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final AtomicLong unexpectedErrors = new AtomicLong();
  private final FinishCheck finishCheck = new FinishCheck();
  private final AtomicBoolean failureReported = new AtomicBoolean();

  private Crawl(CrawlAssembly parts) {
    this.parts = parts;
    this.dir = parts.dir;
    this.frontier = parts.frontier;
    this.visits = parts.visits;
    this.stop = parts.stop;
  }

  /**
   * Opens the crawl folder and every part ({@link CrawlAssembly}). A NEW crawl refuses a folder
   * that holds one, and queues its seeds; a RESUME reopens the frontier and the filter where they were.
   */
  public static Crawl open(CrawlConfig config, Start start, CrawlEnvironment env) throws IOException {
    return new Crawl(CrawlAssembly.open(config, start, env));
  }

  /**
   * Crawls until the frontier is empty, a limit is reached, or {@link #stop} is called; then
   * stops the workers (see {@link StopSignal}) and returns why. Closing is left to {@link #close}.
   * An interrupt of the calling thread stops the crawl as {@link #stop} does, and is still set
   * when this returns {@link StopReason#STOPPED}.
   */
  public StopReason run() throws InterruptedException {
    try {
      parts.reporter.start();
      parts.placement.start(parts.scope, this::fail);
      int workers = parts.workers;
      List<Thread> threads = new ArrayList<>(workers);
      for (int i = 0; i < workers; i++) {
        threads.add(Thread.ofVirtual().name("fetcher-", i).start(this::work));
      }
      Instant deadline = parts.maxDuration.map(d -> Instant.now().plus(d)).orElse(Instant.MAX);
      boolean interrupted = false;
      while (!stop.stopping()) {
        try {
          Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
          // The caller wants out: stop as on a request, so that the workers end before the
          // stores they use are closed, and say so once they have.
          interrupted = true;
          stop.stop(StopReason.STOPPED);
          break;
        }
        boolean nothingLeft;
        try {
          nothingLeft = parts.placement.endsWhenEmpty() && finishCheck.nothingLeft(() -> frontier.stats().queuedUrls());
        } catch (RuntimeException e) {
          fail(e);   // the frontier refuses every call after a failed write
          break;
        }
        if (nothingLeft) {
          stop.stop(StopReason.FINISHED);
        } else if (Instant.now().isAfter(deadline)) {
          stop.stop(StopReason.MAX_DURATION);
        }
      }
      log.info("Stopping: {}; waiting up to {}s for {} fetches in flight", stop.reason().description(),
          STOP_GRACE.toSeconds(), leasedNow());
      long graceEnd = System.nanoTime() + STOP_GRACE.toNanos();
      for (Thread t : threads) {
        t.join(Duration.ofNanos(Math.max(1, graceEnd - System.nanoTime())));
      }
      stop.abort();
      for (Thread t : threads) {
        t.interrupt();
      }
      for (Thread t : threads) {
        t.join();
      }
      if (unexpectedErrors.get() > 0) {
        log.warn("{} visits ended in an unexpected error (logged above with their URLs); please report them",
            unexpectedErrors.get());
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return stop.reason();
    } finally {
      ended.countDown();
    }
  }

  private void work() {
    while (!stop.stopping()) {
      Optional<Lease> lease;
      try {
        lease = frontier.next(POLL);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        fail(e);   // a failed write makes the frontier refuse every call: nothing more to do
        return;
      }
      if (lease.isEmpty()) {
        continue;
      }
      finishCheck.visitBegins();
      try {
        visits.visit(lease.get(), stop::aborted);
      } catch (RuntimeException e) {
        if (StorageFailure.is(e)) {
          fail(e);
        } else {
          unexpectedErrors.incrementAndGet();
          log.warn("Unexpected error while visiting {} (please report it); the crawl goes on", lease.get().url(), e);
        }
      } catch (Error e) {
        // Out of memory, say: this worker is gone, and a crawl whose workers all died this way
        // would wait forever. Stop it instead; the open leases come back on resume.
        fail(new IllegalStateException("a fetch worker died: " + e, e));
        return;
      } finally {
        finishCheck.visitEnds();
      }
    }
  }

  /**
   * Stops the crawl on a failure it cannot go on with, even one that comes while it is already
   * stopping for another reason, and says so in one ERROR line: the first failure only, since
   * the workers that run into the same full disk after it add nothing.
   */
  private void fail(RuntimeException e) {
    stop.fail();
    if (!failureReported.compareAndSet(false, true)) {
      log.debug("Another failure after the first", e);
      return;
    }
    String resume = "`" + parts.resumeCommand + "`";
    // An exception made from its cause alone has "java.io.IOException: ..." for a message; the cause's says it all.
    String what = e.getCause() != null && e.getCause().toString().equals(e.getMessage()) ? e.getCause().getMessage()
        : e.getMessage();
    if (StorageFailure.isDiskFull(e)) {
      log.error("The disk is full: {}. The crawl stops; its state is safe. Free space on the disk of {}, then "
          + "continue with {}.", what, dir.root, resume);
    } else if (StorageFailure.is(e)) {
      log.error("The crawl stops on a storage error: {}. Its state is safe: fix the cause, then continue with {}.",
          what, resume);
    } else {
      log.error("The crawl stops on an unexpected error (please report it); continue with {}", resume, e);
      return;
    }
    log.debug("Cause", e);
  }

  /** Fetches in flight now, for the log; 0 if the frontier cannot tell (it failed). */
  private long leasedNow() {
    try {
      return frontier.stats().leasedUrls();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** Whether nothing is left to fetch: the frontier holds no URL, queued or leased (a resumed finished crawl). */
  public boolean isFinished() {
    var f = frontier.stats();
    return f.queuedUrls() == 0 && f.leasedUrls() == 0;
  }

  /** Asks a running crawl to stop cleanly (Ctrl-C, SIGTERM); returns at once. */
  public void stop() {
    stop.stop(StopReason.STOPPED);
  }

  /** Waits until {@link #run} has returned. */
  public boolean awaitRunEnded(Duration timeout) throws InterruptedException {
    return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public StatsSnapshot stats() {
    return parts.stats.snapshot();
  }

  /** The seeds in their normal form. */
  public List<String> seeds() {
    return parts.seeds;
  }

  public Path directory() {
    return dir.root;
  }

  /**
   * Closes every part in reverse order of opening: the last stats line and summary, then the
   * stores, then the lock. After a failure (a full disk) parts may fail to close too; that was
   * expected and already reported, so each such part gets one WARN line instead of an exception.
   */
  @Override
  public void close() throws IOException {
    // An interrupt (run() keeps one it was stopped by) would close the channels that save the
    // filter and finish the WARC file: set it aside while closing, and put it back after.
    boolean interrupted = Thread.interrupted();
    try {
      closeParts();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void closeParts() {
    parts.close(stop.reason() == StopReason.FAILED);
  }
}
