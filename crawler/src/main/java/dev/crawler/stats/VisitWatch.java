package dev.crawler.stats;

import dev.crawler.record.CrawlOutcome;
import java.time.Duration;

/**
 * Told of every settled visit, after it is counted: for figures the counters do not keep, such as
 * per-host activity and fetch latency. Called by many fetch workers at once; must not block.
 */
@FunctionalInterface
public interface VisitWatch {
  VisitWatch NONE = (hostKey, url, outcome, httpStatus, took, detail) -> {};

  /**
   * @param hostKey the queue's key (a host, a domain or an address)
   * @param httpStatus the response's status code, 0 without one
   * @param took how long the fetch took; null when no request was made
   * @param detail the crawl log's detail (an error's message), or null
   */
  void visited(String hostKey, String url, CrawlOutcome outcome, int httpStatus, Duration took, String detail);
}
