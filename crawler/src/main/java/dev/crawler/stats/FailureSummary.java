package dev.crawler.stats;

import dev.crawler.record.CrawlOutcome;
import java.util.List;

/**
 * This run's failures at one moment: the {@code failures} part of stats.json and the summary's
 * failure lines.
 *
 * @param total failed visits
 * @param kinds by status class and outcome, the most frequent first
 * @param hosts the hosts with the most failures, the most first
 * @param hostCountsExact false once more hosts failed than are tracked: the counts are then
 *     estimates that may be too high by the sketch's maximum error
 */
public record FailureSummary(long total, List<KindCount> kinds, List<HostCount> hosts, boolean hostCountsExact) {

  public static final FailureSummary NONE = new FailureSummary(0, List.of(), List.of(), true);

  /**
   * @param status "4xx", "5xx", "other", or "no answer"
   * @param examples the first few URLs, each after its status code when there was one
   */
  public record KindCount(String status, CrawlOutcome outcome, long count, List<String> examples) {}

  public record HostCount(String host, long failures) {}
}
