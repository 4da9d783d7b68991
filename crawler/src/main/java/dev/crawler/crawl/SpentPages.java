package dev.crawler.crawl;

import dev.crawler.record.CrawlLogEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
    long total = 0;
    long unreadable = 0;
    Map<String, Long> hosts = new HashMap<>();
    if (!Files.exists(crawlLog)) {
      return new Counts(0, Map.of(), 0);
    }
    // InputStreamReader replaces bad bytes (a line cut inside a character) instead of failing.
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(Files.newInputStream(crawlLog), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        CrawlLogEntry entry;
        try {
          entry = CrawlLogEntry.parse(line);
        } catch (IllegalArgumentException e) {
          unreadable++;
          continue;
        }
        if (!entry.outcome().spentAPage() || Crawl.ROBOTS_TXT_DETAIL.equals(entry.detail())) {
          continue;
        }
        total++;
        if (perHost) {
          hosts.merge(hostKey.apply(entry.url()), 1L, Long::sum);
        }
      }
    }
    return new Counts(total, hosts, unreadable);
  }
}
