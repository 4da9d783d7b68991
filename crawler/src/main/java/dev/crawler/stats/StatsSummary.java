package dev.crawler.stats;

import static dev.crawler.stats.Figures.grouped;
import static dev.crawler.stats.Figures.percent;
import static dev.crawler.stats.Figures.rate;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.record.CrawlOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The few lines logged when the crawl ends: pages requested, how long this run took and its
 * average rate, then a table of them by outcome (outcomes that never happened left out), the URLs
 * settled without a request (robots.txt, the page budget), links, frontier and URL-seen figures.
 * Exact numbers, not the stats line's rounded ones, under the same names. After a resume the
 * figures are the whole crawl's, but for those it says are this run's (time, rate, URL-seen
 * checks, failures).
 */
final class StatsSummary {
  private StatsSummary() {}

  static List<String> lines(Sample start, Sample end) {
    StatsSnapshot s = end.crawl();
    List<String> lines = new ArrayList<>();
    long requested = s.requested();
    long thisRun = requested - start.crawl().requested();
    boolean resumed = start.crawl().pages() > 0;
    String took = Figures.duration(Duration.between(start.time(), end.time())) + ", avg "
        + rate(end.pagesPerSecondSince(start)) + " pages/s, ";
    lines.add("Crawl summary: " + Figures.count(requested, "page", "pages") + " requested"
        + (resumed ? " by the whole crawl, " + grouped(thisRun) + " of them in this run's " + took : " in " + took)
        + Figures.bytes(s.bytes()) + " kept, " + StatsLine.statusClasses(s.statuses()));
    StringJoiner notRequested = new StringJoiner(", ", "  not requested: ", "");
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      long n = s.outcome(outcome);
      if (n == 0) {
        continue;
      }
      if (outcome.spentAPage()) {
        lines.add(String.format(Locale.US, "  %-18s %,14d %6.1f%%", outcome.name(), n, 100.0 * n / requested));
      } else {
        notRequested.add(outcome.name() + " " + grouped(n));
      }
    }
    if (requested < s.pages()) {
      lines.add(notRequested.toString());
    }
    lines.addAll(failures(end.failures(), resumed ? " this run" : ""));
    lines.add("  links " + grouped(s.linksTotal()) + ": " + String.join(", ", StatsLine.linkKinds(s, Figures::grouped))
        + scopeDetail(s) + "; robots.txt fetches " + grouped(s.robotsFetches()));
    FrontierStats f = end.frontier();
    if (f != null) {
      lines.add("  frontier: " + Figures.count(f.queuedUrls(), "URL", "URLs") + " left in "
          + Figures.count(f.hosts(), "host", "hosts") + "; " + grouped(f.fetched()) + " done, " + grouped(f.retried())
          + " retried, " + grouped(f.failed()) + " failed over its life");
    }
    UrlSeenStats u = end.seen();
    if (u != null) {
      String fp = StatsLine.falsePositives(u);
      lines.add("  URL-seen" + (resumed ? " this run" : "") + ": " + grouped(u.checks()) + " checks, " + grouped(u.newUrls()) + " new; filter holds "
          + grouped(u.filterUrls()) + " of the " + grouped(u.filterCapacity()) + " URLs it is sized for ("
          + percent(u.fillRatio()) + " of bits set) in " + Figures.count(u.filters(), "filter", "filters") + " of "
          + Figures.bytes(u.filterBytes()) + ", est. fp " + percent(u.estimatedRate()) + (fp == null ? "" : ", " + fp));
    }
    return lines;
  }

  /**
   * Failed visits by status class and outcome, a few URLs of each, and the hosts with the most:
   * where to look when the status classes show 4xx or 5xx.
   */
  static List<String> failures(FailureSummary f, String thisRun) {
    if (f.total() == 0) {
      return List.of("  failures" + thisRun + ": none (no 4xx or 5xx answer, no request without one)");
    }
    List<String> lines = new ArrayList<>();
    StringJoiner kinds = new StringJoiner(", ", "  failures" + thisRun + " " + grouped(f.total()) + ": ", "");
    f.kinds().forEach(k -> kinds.add(k.status() + " " + k.outcome().name() + " " + grouped(k.count())));
    lines.add(kinds.toString());
    f.kinds().forEach(k -> lines.add("    " + k.status() + " " + k.outcome().name() + ", e.g. "
        + String.join(", ", k.examples())));
    String about = f.hostCountsExact() ? "" : "~";
    StringJoiner hosts = new StringJoiner(", ", "    most failures: ", "");
    f.hosts().forEach(h -> hosts.add(h.host() + " " + about + grouped(h.failures())));
    lines.add(hosts.toString());
    return lines;
  }

  /** The kinds of out-of-scope and trap links, when a total stands for more than one kind. */
  private static String scopeDetail(StatsSnapshot s) {
    StringJoiner out = new StringJoiner("; ", " (", ")");
    out.setEmptyValue("");
    kinds(s, out, "out of scope", LinkVerdict.OFF_SITE, LinkVerdict.NOT_INCLUDED, LinkVerdict.EXCLUDED);
    kinds(s, out, "traps", LinkVerdict.TOO_LONG, LinkVerdict.REPEATED_SEGMENTS, LinkVerdict.TOO_MANY_PARAMETERS);
    return out.toString();
  }

  private static void kinds(StatsSnapshot s, StringJoiner out, String total, LinkVerdict... verdicts) {
    StringJoiner kinds = new StringJoiner(", ", total + ": ", "");
    int nonZero = 0;
    for (LinkVerdict verdict : verdicts) {
      if (s.links(verdict) > 0) {
        nonZero++;
        kinds.add(verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + grouped(s.links(verdict)));
      }
    }
    if (nonZero > 1) {
      out.add(kinds.toString());
    }
  }
}
