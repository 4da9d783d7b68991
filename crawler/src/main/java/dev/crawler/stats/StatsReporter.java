package dev.crawler.stats;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells how the crawl is going: every interval, one {@link StatsLine line} at INFO on the
 * logger {@code dev.crawler.stats} and a fresh stats.json; at {@link #close()}, the final
 * stats.json and a {@link StatsSummary summary}.
 *
 * <p>Create it after {@link CrawlStats#restore}: the totals it reports include the restored
 * ones, its rates only what this run did. Close it before the frontier and the URL-seen service
 * it asks (if one cannot answer, its part of the line is left out). A stats.json that cannot be
 * written is a warning, not a reason to stop the crawl: the file keeps the last numbers written.
 */
public final class StatsReporter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("dev.crawler.stats");

  private final CrawlStats stats;
  private final Supplier<FrontierStats> frontier;
  private final Supplier<UrlSeenStats> seen;
  private final Path statsJson;
  /** What each logged line starts with: empty, or the node it is of. */
  private volatile String label = "";
  /** What each logged line ends with: nothing, or the node's partitions and state. */
  private volatile Supplier<String> tail = () -> "";
  private final Duration interval;
  private final InstantSource clock;
  /** Where this run's rates start: the construction's totals, at the time {@link #start} was called. */
  private Sample start;
  private final Object tickLock = new Object();
  private ScheduledExecutorService timer;
  private Sample previous;
  private boolean writeFailing;
  private final List<Consumer<StatsFile>> readers = new CopyOnWriteArrayList<>();
  private boolean closed;

  /**
   * @param frontier the frontier's counts; null for none
   * @param seen the URL-seen service's counts; null for none
   * @param statsJson where to write stats.json; null for no file
   */
  public StatsReporter(CrawlStats stats, Supplier<FrontierStats> frontier, Supplier<UrlSeenStats> seen, Path statsJson,
      Duration interval, InstantSource clock) {
    this.stats = Objects.requireNonNull(stats, "stats");
    this.frontier = frontier;
    this.seen = seen;
    this.statsJson = statsJson;
    this.interval = Objects.requireNonNull(interval, "interval");
    checkArgument(interval.toMillis() > 0, "Stats interval (%s) must be at least 1ms", interval);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.start = new Sample(clock.instant(), stats.snapshot(), null, null);
    this.previous = start;
  }

  /**
   * Writes stats.json at once, then starts the one daemon thread that reports every interval.
   * The first write names where this run's crawl-log lines begin (see
   * {@link StatsSnapshot#crawlLogBytes}), so a kill before the first interval loses none of them
   * from the totals, even after a stats.json that did not name it.
   */
  public synchronized void start() {
    checkState(!closed, "StatsReporter is closed");
    if (timer != null) {
      return;
    }
    // The clock starts with the crawl, not at construction: queuing a million seeds in between
    // would count as crawl time and lower every rate of the run.
    synchronized (tickLock) {
      start = new Sample(clock.instant(), start.crawl(), null, null);
      previous = start;
      write(StatsFile.of(start, previous, sampleAt(start.time())));
    }
    timer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "crawl-stats");
      thread.setDaemon(true);
      return thread;
    });
    long millis = interval.toMillis();
    timer.scheduleAtFixedRate(this::reportQuietly, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Hands {@code reader} every report from now on, the same numbers stats.json gets, on the
   * reporting thread: it must return quickly. One that throws is logged and kept.
   */
  public void publishTo(Consumer<StatsFile> reader) {
    readers.add(Objects.requireNonNull(reader, "reader"));
  }

  /** Starts each stats line and summary line with {@code who} ("node n1: "), for several crawls in one log. */
  public void labelled(String who) {
    this.label = Objects.requireNonNull(who, "who");
  }

  /** Ends each stats line with what {@code tail} gives then (" | partitions 3, lag 0"), or nothing for "". */
  public void endedWith(Supplier<String> tail) {
    this.tail = Objects.requireNonNull(tail, "tail");
  }

  /** The stats line now, rates over the time since the last report. Does not count as a report. */
  public String line() {
    synchronized (tickLock) {
      return StatsLine.format(start, previous, sample()) + tail.get();
    }
  }

  /** Stops the thread, writes the final stats.json and logs the summary. A second call does nothing. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (timer != null) {
        timer.shutdown();
        try {
          if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
            log.warn("The stats thread did not stop within 10s; the summary is written without waiting for it");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    synchronized (tickLock) {
      Sample end = sample();
      write(StatsFile.of(start, previous, end));
      StatsSummary.lines(start, end).forEach(line -> log.info("{}{}", label, line));
    }
  }

  /** One report: the line at INFO, then stats.json. */
  void report() {
    synchronized (tickLock) {
      Sample now = sample();
      log.info("{}{}{}", label, StatsLine.format(start, previous, now), tail.get());
      write(StatsFile.of(start, previous, now));
      previous = now;
    }
  }

  /** On the timer thread: an exception would cancel every later report, so none escapes. */
  private void reportQuietly() {
    try {
      report();
    } catch (RuntimeException e) {
      log.warn("Stats report failed; the next one will try again", e);
    }
  }

  private Sample sample() {
    return sampleAt(clock.instant());
  }

  private Sample sampleAt(java.time.Instant time) {
    return new Sample(time, stats.snapshot(), ask(frontier, "frontier"), ask(seen, "URL-seen service"),
        stats.failures());
  }

  private static <T> T ask(Supplier<T> source, String what) {
    if (source == null) {
      return null;
    }
    try {
      return source.get();
    } catch (RuntimeException e) {
      log.debug("The {} could not give its stats: {}", what, e.toString());
      return null;
    }
  }

  private void write(StatsFile file) {
    for (Consumer<StatsFile> reader : readers) {
      try {
        reader.accept(file);
      } catch (RuntimeException e) {
        log.warn("A reader of the stats failed: {}", e.toString());
      }
    }
    if (statsJson == null) {
      return;
    }
    try {
      file.writeAtomically(statsJson);
      if (writeFailing) {
        log.info("Writing {} works again", statsJson);
        writeFailing = false;
      }
    } catch (IOException e) {
      if (!writeFailing) {
        log.warn("Cannot write stats file {}: {}. The crawl goes on; the file keeps the last numbers written. "
            + "Check the disk.", statsJson, e.toString());
        writeFailing = true;
      }
    }
  }
}
