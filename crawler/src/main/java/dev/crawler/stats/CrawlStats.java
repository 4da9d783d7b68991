package dev.crawler.stats;

import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlOutcome;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The crawl's own counters, updated by every fetch worker. Each update is a few
 * {@link LongAdder} increments, which do not contend the way one shared atomic would.
 *
 * <p>With a crawl log ({@link #countWith}), pages and robots.txt fetches are counted under its
 * lock and a {@link #snapshot()} reads them under it too, so they agree with each other and with
 * the log's lines. Links are counted outside it: a snapshot may miss a page's links in flight.
 * Without a crawl log the counters are read one after another, not at one instant: a page
 * counted meanwhile may be in {@code pages} and not yet in {@code outcomes}.
 */
public final class CrawlStats {
  private static final CrawlOutcome[] OUTCOMES = CrawlOutcome.values();
  private static final LinkVerdict[] VERDICTS = LinkVerdict.values();
  /** 1xx..5xx at 0..4, anything else at 5. */
  private static final int OTHER_STATUS = 5;

  private final LongAdder pages = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder robotsFetches = new LongAdder();
  private final LongAdder[] outcomes = adders(OUTCOMES.length);
  private final LongAdder[] statusClasses = adders(OTHER_STATUS + 1);
  private final LongAdder[] links = adders(VERDICTS.length);
  private final FailureTally failures = new FailureTally();
  private volatile StatsSnapshot restored = StatsSnapshot.EMPTY;
  /** Where pages and robots fetches are logged, counted under its lock; null without a crawl log. */
  private volatile CrawlLog crawlLog;

  /**
   * One URL taken from the frontier and what happened to it.
   *
   * @param httpStatus the response's status code, 0 without a response
   * @param bytes body bytes kept
   */
  public void page(CrawlOutcome outcome, int httpStatus, long bytes) {
    outcomes[outcome.ordinal()].increment();
    pages.increment();
    if (bytes > 0) {
      this.bytes.add(bytes);
    }
    if (httpStatus > 0) {
      statusClasses[httpStatus >= 100 && httpStatus <= 599 ? httpStatus / 100 - 1 : OTHER_STATUS].increment();
    }
  }

  /**
   * Keeps the visit's URL and host if it failed (a 4xx or 5xx answer, or none), for
   * {@link #failures()}; does nothing for the others. Not restored on resume: this run's only.
   */
  public void visited(CrawlOutcome outcome, int httpStatus, String url) {
    failures.visit(outcome, httpStatus, url);
  }

  /** This run's failures so far. */
  public FailureSummary failures() {
    return failures.summary();
  }

  /**
   * {@code count} discovered URLs (outlinks, redirect targets, sitemap URLs, seeds) with one
   * verdict; counted a page at a time, since one shared increment a link showed in profiles.
   */
  public void links(LinkVerdict verdict, long count) {
    links[verdict.ordinal()].add(count);
  }

  public void robotsFetch() {
    robotsFetches.increment();
  }

  /**
   * Reads the counters under the crawl log's lock from now on, so each snapshot stands for the
   * log up to a length ({@link StatsSnapshot#crawlLogBytes}). For this, pages and robots fetches
   * must be counted in {@link CrawlLog#log(dev.crawler.record.CrawlLogEntry, Runnable)}.
   */
  public void countWith(CrawlLog log) {
    crawlLog = Objects.requireNonNull(log, "log");
  }

  /** The totals now, restored ones included. */
  public StatsSnapshot snapshot() {
    CrawlLog log = crawlLog;
    return log == null ? read() : log.atLength(length -> read().atCrawlLogLength(length));
  }

  private StatsSnapshot read() {
    Map<CrawlOutcome, Long> byOutcome = new EnumMap<>(CrawlOutcome.class);
    for (CrawlOutcome outcome : OUTCOMES) {
      byOutcome.put(outcome, outcomes[outcome.ordinal()].sum());
    }
    Map<LinkVerdict, Long> byVerdict = new EnumMap<>(LinkVerdict.class);
    for (LinkVerdict verdict : VERDICTS) {
      byVerdict.put(verdict, links[verdict.ordinal()].sum());
    }
    StatsSnapshot.StatusClasses statuses = new StatsSnapshot.StatusClasses(statusClasses[0].sum(),
        statusClasses[1].sum(), statusClasses[2].sum(), statusClasses[3].sum(), statusClasses[4].sum(),
        statusClasses[OTHER_STATUS].sum());
    StatsSnapshot own = new StatsSnapshot(pages.sum(), bytes.sum(), byOutcome, statuses, byVerdict,
        robotsFetches.sum());
    return restored.plus(own);
  }

  /**
   * Continues the totals of an earlier run of the same crawl: later snapshots add this one's
   * counters to the restored ones. A second call replaces the first.
   */
  public void restore(StatsSnapshot previous) {
    restored = Objects.requireNonNull(previous, "previous");
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] adders = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }
}
