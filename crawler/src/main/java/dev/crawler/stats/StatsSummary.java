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
 * The few lines logged when the crawl ends: totals, how long this run took and its average
 * rate, then a table of pages by outcome (outcomes that never happened left out), links,
 * frontier and URL-seen figures. Exact numbers, not the stats line's rounded ones.
 */
final class StatsSummary {
  private StatsSummary() {}

  static List<String> lines(Sample start, Sample end) {
    StatsSnapshot s = end.crawl();
    List<String> lines = new ArrayList<>();
    long thisRun = s.pages() - start.crawl().pages();
    String run = thisRun == s.pages() ? "" : " (" + grouped(thisRun) + " this run)";
    lines.add("Crawl summary: " + grouped(s.pages()) + " pages" + run + " in "
        + Figures.duration(Duration.between(start.time(), end.time())) + ", avg "
        + rate(end.pagesPerSecondSince(start)) + " pages/s, " + Figures.bytes(s.bytes()) + " kept, "
        + StatsLine.statusClasses(s.statuses()));
    for (CrawlOutcome outcome : CrawlOutcome.values()) {
      long n = s.outcome(outcome);
      if (n > 0) {
        lines.add(String.format(Locale.US, "  %-18s %,14d %6.1f%%", outcome.name(), n, 100.0 * n / s.pages()));
      }
    }
    StringJoiner links = new StringJoiner(", ", "  links " + grouped(s.linksTotal()) + ": ", "");
    links.setEmptyValue("  links 0");
    for (LinkVerdict verdict : LinkVerdict.values()) {
      if (s.links(verdict) > 0) {
        links.add(verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + grouped(s.links(verdict)));
      }
    }
    lines.add(links + "; robots.txt fetches " + grouped(s.robotsFetches()));
    FrontierStats f = end.frontier();
    if (f != null) {
      lines.add("  frontier: " + grouped(f.queuedUrls()) + " URLs left in " + grouped(f.hosts()) + " hosts; "
          + grouped(f.fetched()) + " done, " + grouped(f.retried()) + " retried, " + grouped(f.failed())
          + " failed over its life");
    }
    UrlSeenStats u = end.seen();
    if (u != null) {
      String fp = StatsLine.falsePositives(u);
      lines.add("  URL-seen: " + grouped(u.checks()) + " checks, " + grouped(u.newUrls()) + " new; filter "
          + percent(u.fillRatio()) + " full in " + u.filters() + (u.filters() == 1 ? " filter" : " filters")
          + " of " + Figures.bytes(u.filterBytes()) + ", est. fp " + percent(u.estimatedRate())
          + (fp == null ? "" : ", " + fp));
    }
    return lines;
  }
}
