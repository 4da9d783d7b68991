package dev.crawler.stats;

import dev.crawler.record.CrawlOutcome;
import dev.crawler.url.CrawlUrl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;

/**
 * This run's failed visits (a 4xx or 5xx answer, or no answer at all), kept so that a person can
 * find them without reading the crawl log: counts by status class and outcome, the first few URLs
 * of each, and the hosts with the most failures.
 *
 * <p>Memory is bounded however many hosts fail: the kinds are at most status classes times
 * outcomes, each with {@value #EXAMPLES} URLs, and the hosts are counted in a frequent-items
 * sketch of {@value #HOSTS_TRACKED} entries (exact while fewer hosts fail, an estimate with a
 * known error beyond).
 */
final class FailureTally {
  static final int EXAMPLES = 3;
  static final int HOSTS_SHOWN = 5;
  /** The sketch's map size, a power of 2; it holds three quarters of it before it purges. */
  private static final int HOSTS_TRACKED = 1024;

  private final ConcurrentMap<Kind, Counted> kinds = new ConcurrentHashMap<>();
  private final ItemsSketch<String> hosts = new ItemsSketch<>(HOSTS_TRACKED);

  /** The status class ("4xx", "5xx") and outcome of a failure; "no answer" when none came. */
  record Kind(String status, CrawlOutcome outcome) {}

  private static final class Counted {
    final LongAdder count = new LongAdder();
    final List<String> examples = new ArrayList<>(EXAMPLES);
  }

  /** Whether a visit with this outcome and status failed: an error answer, or none where one was asked for. */
  static boolean isFailure(CrawlOutcome outcome, int httpStatus) {
    return httpStatus >= 400 || (httpStatus == 0 && StatsLine.ERRORS.containsKey(outcome));
  }

  /** Counts the visit if it failed; does nothing otherwise. */
  void visit(CrawlOutcome outcome, int httpStatus, String url) {
    if (!isFailure(outcome, httpStatus)) {
      return;
    }
    CrawlUrl parsed = CrawlUrl.of(url);
    String host = parsed == null ? url : parsed.hostKey();
    String status = httpStatus == 0 ? "no answer" : httpStatus >= 600 ? "other" : httpStatus / 100 + "xx";
    Counted counted = kinds.computeIfAbsent(new Kind(status, outcome), k -> new Counted());
    counted.count.increment();
    synchronized (counted.examples) {
      if (counted.examples.size() < EXAMPLES) {
        counted.examples.add(httpStatus == 0 ? url : httpStatus + " " + url);
      }
    }
    synchronized (hosts) {
      hosts.update(host);
    }
  }

  FailureSummary summary() {
    List<FailureSummary.KindCount> byKind = new ArrayList<>();
    kinds.forEach((kind, counted) -> {
      List<String> examples;
      synchronized (counted.examples) {
        examples = List.copyOf(counted.examples);
      }
      byKind.add(new FailureSummary.KindCount(kind.status(), kind.outcome(), counted.count.sum(), examples));
    });
    byKind.sort(Comparator.comparingLong(FailureSummary.KindCount::count).reversed()
        .thenComparing(FailureSummary.KindCount::status).thenComparing(FailureSummary.KindCount::outcome));
    List<FailureSummary.HostCount> top;
    boolean exact;
    synchronized (hosts) {
      top = Arrays.stream(hosts.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES))
          .sorted(Comparator.comparingLong((ItemsSketch.Row<String> r) -> r.getEstimate()).reversed()
              .thenComparing(ItemsSketch.Row::getItem))
          .limit(HOSTS_SHOWN)
          .map(r -> new FailureSummary.HostCount(r.getItem(), r.getEstimate()))
          .toList();
      exact = hosts.getMaximumError() == 0;
    }
    long total = byKind.stream().mapToLong(FailureSummary.KindCount::count).sum();
    return new FailureSummary(total, byKind, top, exact);
  }
}
