package dev.crawler.stats;

import static dev.crawler.stats.Figures.compact;
import static dev.crawler.stats.Figures.grouped;
import static dev.crawler.stats.Figures.percent;
import static dev.crawler.stats.Figures.rate;
import static dev.crawler.stats.Figures.share;

import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierStats;
import dev.crawler.record.CrawlOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongFunction;

/**
 * The periodic stats line, one segment per part of the crawl, for example:
 * <pre>
 * pages 12,418 (+1,032/s, avg 950/s) | 113 MB | 2xx 97% 3xx 2% 4xx 1% 5xx 0% | errors 31 (timeout 12, refused 3)
 *   | robots denied 40 | frontier 1,204,113 URLs, 8,211 hosts (412 ready, 32 leased)
 *   | links 2.1M: new 310k, dup 1.7M, out of scope 88k | filter 310k of 100M URLs (11% of bits set),
 *   est. fp &lt;0.0001% | verified fp 3
 * </pre>
 * {@code pages} counts the URLs requested (or tried); those stopped before a request are counted
 * beside it ({@code robots denied}, {@code over budget}).
 * Segments and kinds that are usually zero (1xx, other statuses, each error kind, budget and
 * retry outcomes, trap verdicts) appear only when they are not. The rate in {@code +N/s} is over
 * the last interval, {@code avg} over this run (restored totals excluded).
 */
final class StatsLine {
  /** Failures without a response, with the short name the line gives them. */
  static final Map<CrawlOutcome, String> ERRORS = new EnumMap<>(Map.of(
      CrawlOutcome.TIMEOUT, "timeout",
      CrawlOutcome.DNS_FAILURE, "dns",
      CrawlOutcome.CONNECTION_REFUSED, "refused",
      CrawlOutcome.CONNECTION_RESET, "reset",
      CrawlOutcome.TLS_FAILURE, "tls",
      CrawlOutcome.PRIVATE_ADDRESS, "private address",
      CrawlOutcome.PROTOCOL_ERROR, "protocol",
      CrawlOutcome.UNSUPPORTED_URL, "unsupported",
      CrawlOutcome.IO_ERROR, "io"));

  /** Outcomes the crawl chose (or was told) rather than failed at; listed after robots denied when not 0. */
  static final Map<CrawlOutcome, String> HELD_BACK = new EnumMap<>(Map.of(
      CrawlOutcome.ROBOTS_UNAVAILABLE, "robots unavailable",
      CrawlOutcome.RETRY_LATER, "retry later",
      CrawlOutcome.BUDGET_EXCEEDED, "over budget",
      CrawlOutcome.REDIRECT_LIMIT, "redirect limit",
      CrawlOutcome.TRUNCATED, "truncated",
      CrawlOutcome.CONTENT_SKIPPED, "type skipped"));

  private StatsLine() {}

  static String format(Sample start, Sample previous, Sample now) {
    StatsSnapshot s = now.crawl();
    StringJoiner line = new StringJoiner(" | ");
    line.add("pages " + grouped(s.requested()) + " (+" + rate(now.pagesPerSecondSince(previous)) + "/s, avg "
        + rate(now.pagesPerSecondSince(start)) + "/s)");
    line.add(Figures.bytes(s.bytes()));
    line.add(statusClasses(s.statuses()));
    line.add(errors(s));
    line.add(heldBack(s));
    if (now.frontier() != null) {
      line.add(frontier(now.frontier()));
    }
    line.add(links(s));
    if (now.seen() != null) {
      line.add(filter(now.seen()));
      String falsePositives = falsePositives(now.seen());
      if (falsePositives != null) {
        line.add(falsePositives);
      }
    }
    return line.toString();
  }

  static String statusClasses(StatsSnapshot.StatusClasses c) {
    long total = c.total();
    StringBuilder out = new StringBuilder();
    if (c.informational() > 0) {
      out.append("1xx ").append(share(c.informational(), total)).append(' ');
    }
    out.append("2xx ").append(share(c.successful(), total))
        .append(" 3xx ").append(share(c.redirection(), total))
        .append(" 4xx ").append(share(c.clientError(), total))
        .append(" 5xx ").append(share(c.serverError(), total));
    if (c.other() > 0) {
      out.append(" other ").append(share(c.other(), total));
    }
    return out.toString();
  }

  static long errorCount(StatsSnapshot s) {
    return ERRORS.keySet().stream().mapToLong(s::outcome).sum();
  }

  private static String errors(StatsSnapshot s) {
    List<String> kinds = new ArrayList<>();
    ERRORS.forEach((outcome, label) -> {
      if (s.outcome(outcome) > 0) {
        kinds.add(label + " " + grouped(s.outcome(outcome)));
      }
    });
    String total = "errors " + grouped(errorCount(s));
    return kinds.isEmpty() ? total : total + " (" + String.join(", ", kinds) + ")";
  }

  private static String heldBack(StatsSnapshot s) {
    StringJoiner out = new StringJoiner(", ");
    out.add("robots denied " + grouped(s.outcome(CrawlOutcome.ROBOTS_DENIED)));
    HELD_BACK.forEach((outcome, label) -> {
      if (s.outcome(outcome) > 0) {
        out.add(label + " " + grouped(s.outcome(outcome)));
      }
    });
    return out.toString();
  }

  private static String frontier(FrontierStats f) {
    return "frontier " + Figures.count(f.queuedUrls(), "URL", "URLs") + ", " + Figures.count(f.hosts(), "host", "hosts")
        + " (" + grouped(f.readyHosts())
        + " ready, " + grouped(f.leasedUrls()) + " leased)";
  }

  static long outOfScope(StatsSnapshot s) {
    return s.links(LinkVerdict.OFF_SITE) + s.links(LinkVerdict.NOT_INCLUDED) + s.links(LinkVerdict.EXCLUDED);
  }

  static long traps(StatsSnapshot s) {
    return s.links(LinkVerdict.TOO_LONG) + s.links(LinkVerdict.REPEATED_SEGMENTS)
        + s.links(LinkVerdict.TOO_MANY_PARAMETERS);
  }

  private static String links(StatsSnapshot s) {
    return "links " + compact(s.linksTotal()) + ": " + String.join(", ", linkKinds(s, Figures::compact));
  }

  /**
   * Discovered URLs by kind, with the names both the line and the summary use: new, dup and
   * out of scope always, too deep, traps and invalid when not 0.
   */
  static List<String> linkKinds(StatsSnapshot s, LongFunction<String> number) {
    List<String> kinds = new ArrayList<>();
    kinds.add("new " + number.apply(s.links(LinkVerdict.NEW)));
    kinds.add("dup " + number.apply(s.links(LinkVerdict.DUPLICATE)));
    kinds.add("out of scope " + number.apply(outOfScope(s)));
    if (s.links(LinkVerdict.TOO_DEEP) > 0) {
      kinds.add("too deep " + number.apply(s.links(LinkVerdict.TOO_DEEP)));
    }
    if (traps(s) > 0) {
      kinds.add("traps " + number.apply(traps(s)));
    }
    if (s.links(LinkVerdict.REJECTED) > 0) {
      kinds.add("invalid " + number.apply(s.links(LinkVerdict.REJECTED)));
    }
    return kinds;
  }

  /** URLs held against URLs sized for (what decides the rate), then bits set (what the rate is read from). */
  private static String filter(UrlSeenStats seen) {
    String stacked = seen.filters() > 1 ? " in " + seen.filters() + " filters" : "";
    return "filter " + compact(seen.filterUrls()) + " of " + compact(seen.filterCapacity()) + " URLs" + stacked
        + " (" + percent(seen.fillRatio()) + " of bits set), est. fp " + percent(seen.estimatedRate());
  }

  /**
   * What false positives cost, by policy. The stats do not name the policy, but show it: under
   * {@code verify} every "maybe" of the filter is looked up in the exact store (storeReads > 0),
   * under {@code accept} none is. Before the filter's first "maybe" there is nothing to say.
   */
  static String falsePositives(UrlSeenStats seen) {
    if (seen.filterMaybes() == 0) {
      return null;
    }
    if (seen.storeReads() > 0 || seen.caughtFalsePositives() > 0) {
      return "verified fp " + grouped(seen.caughtFalsePositives());
    }
    return "~" + compact(Math.round(seen.estimatedSkips())) + " skipped";
  }
}
