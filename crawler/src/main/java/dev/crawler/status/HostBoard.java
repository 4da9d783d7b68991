package dev.crawler.status;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.VisitWatch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * Per-host figures for the status page, never for metrics labels: the busiest and slowest hosts,
 * those backing off or suspended after failures in a row, and the latest errors. Memory is
 * bounded: the most recently active {@link #HOSTS} hosts and the last {@link #ERRORS} errors.
 *
 * <p>Back-off and suspension follow the frontier's rule from the outside: a failure is a visit
 * with no answer or a 429/503, one success ends the run, and {@code suspendAfter} failures in a
 * row suspend the host.
 */
final class HostBoard implements VisitWatch {
  static final int HOSTS = 10_000;
  static final int ERRORS = 50;
  /** Hosts on each list of the page. */
  static final int LISTED = 10;
  /** A host needs this many fetches to be called slow: one slow page says little. */
  static final int SLOW_AFTER_FETCHES = 3;

  private static final Set<CrawlOutcome> FAILURES = EnumSet.of(CrawlOutcome.RETRY_LATER, CrawlOutcome.TIMEOUT,
      CrawlOutcome.DNS_FAILURE, CrawlOutcome.CONNECTION_REFUSED, CrawlOutcome.CONNECTION_RESET,
      CrawlOutcome.TLS_FAILURE, CrawlOutcome.PROTOCOL_ERROR, CrawlOutcome.IO_ERROR);
  private static final Set<CrawlOutcome> SUCCESSES = EnumSet.of(CrawlOutcome.FETCHED, CrawlOutcome.TRUNCATED,
      CrawlOutcome.CONTENT_SKIPPED, CrawlOutcome.REDIRECT);

  private final int suspendAfter;
  private final Cache<String, HostActivity> hosts = CacheBuilder.newBuilder().maximumSize(HOSTS).build();
  private final ArrayDeque<RecentError> errors = new ArrayDeque<>();

  HostBoard(int suspendAfter) {
    this.suspendAfter = suspendAfter;
  }

  @Override
  public void visited(String hostKey, String url, CrawlOutcome outcome, int httpStatus, Duration took,
      String detail) {
    HostActivity host;
    try {
      host = hosts.get(hostKey, () -> new HostActivity(hostKey));
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    host.pages.increment();
    if (took != null) {
      host.fetches.increment();
      host.fetchNanos.add(took.toNanos());
    }
    if (FAILURES.contains(outcome)) {
      host.failuresInARow.incrementAndGet();
      host.lastError = outcome.name().toLowerCase(java.util.Locale.ROOT) + (detail == null ? "" : ": " + detail);
    } else if (SUCCESSES.contains(outcome)) {
      host.failuresInARow.set(0);
    }
    if (FAILURES.contains(outcome) || httpStatus >= 500) {
      synchronized (errors) {
        if (errors.size() == ERRORS) {
          errors.removeFirst();
        }
        errors.addLast(new RecentError(Instant.now().toString(), url, outcome, httpStatus, detail));
      }
    }
  }

  Board board() {
    List<HostActivity.HostFigures> all = hosts.asMap().values().stream().map(HostActivity::figures).toList();
    List<RecentError> latest;
    synchronized (errors) {
      latest = List.copyOf(errors.reversed());
    }
    return new Board(
        top(all, Comparator.comparingLong(HostActivity.HostFigures::pages)),
        top(all.stream().filter(h -> h.fetches() >= SLOW_AFTER_FETCHES).toList(),
            Comparator.comparingDouble(HostActivity.HostFigures::meanFetchSeconds)),
        top(all.stream().filter(h -> h.failuresInARow() > 0 && h.failuresInARow() < suspendAfter).toList(),
            Comparator.comparingInt(HostActivity.HostFigures::failuresInARow)),
        top(all.stream().filter(h -> h.failuresInARow() >= suspendAfter).toList(),
            Comparator.comparingInt(HostActivity.HostFigures::failuresInARow)),
        latest);
  }

  private static List<HostActivity.HostFigures> top(List<HostActivity.HostFigures> hosts,
      Comparator<HostActivity.HostFigures> by) {
    return hosts.stream().sorted(by.reversed().thenComparing(HostActivity.HostFigures::host)).limit(LISTED).toList();
  }

  /** The page's host lists, each at most {@link #LISTED} long, and the latest errors, newest first. */
  record Board(List<HostActivity.HostFigures> busiest, List<HostActivity.HostFigures> slowest,
      List<HostActivity.HostFigures> backingOff, List<HostActivity.HostFigures> suspended,
      List<RecentError> latestErrors) {}

  /** @param httpStatus 0 without a response */
  record RecentError(String time, String url, CrawlOutcome outcome, int httpStatus, String detail) {}
}
