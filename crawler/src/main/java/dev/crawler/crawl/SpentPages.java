package dev.crawler.crawl;

import dev.crawler.record.CrawlLogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The pages a resumed crawl has already spent of its limits, counted from its crawl log.
 *
 * <p>Why the log and not stats.json: stats.json is rewritten every stats interval, so after a
 * kill it is up to one interval behind, and it holds no per-host counts; the crawl log has a
 * line for every fetch, written through before the URL is settled. A kill between granting a
 * page and logging it loses at most the fetches then in flight. Reading the log takes time in
 * proportion to its lines (not measured at scale), so it is read only when the crawl has a
 * page limit.
 */
final class SpentPages {
  /**
   * @param total pages spent in all
   * @param perHost pages spent per host key; empty unless asked for
   * @param unreadableLines lines that are not crawl-log lines (the last one, cut by a kill)
   */
  record Counts(long total, Map<String, Long> perHost, long unreadableLines) {}

  private SpentPages() {}

  /**
   * @param hostKey the host key of a URL ({@code Scope.hostKey}), by which page limits count; under
   *     {@code politeness.queue-by: domain} not the frontier's queue key
   * @param perHost whether to count per host key (only when a per-host limit is set: the map
   *     holds one entry per host fetched)
   */
  static Counts count(Path crawlLog, UnaryOperator<String> hostKey, boolean perHost) throws IOException {
    long[] total = new long[1];
    Map<String, Long> hosts = new HashMap<>();
    long unreadable = CrawlLogReader.forEach(crawlLog, 0, entry -> {
      if (!entry.outcome().spentAPage() || CrawlAssembly.ROBOTS_TXT_DETAIL.equals(entry.detail())) {
        return;
      }
      total[0]++;
      if (perHost) {
        hosts.merge(hostKey.apply(entry.url()), 1L, Long::sum);
      }
    });
    return new Counts(total[0], hosts, unreadable);
  }
}
