package dev.crawler.cluster;

import dev.crawler.demo.RequestLog;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a site's request log says of a crawl against the URLs it should have requested: those
 * never requested, and the pages requested more than once (a robots.txt fetched again by a
 * partition's next owner is not a page).
 */
record CrawledOnce(Set<String> missed, Map<String, Long> twice) {
  static CrawledOnce of(RequestLog log, Set<String> expected) {
    Map<String, Long> fetched = log.countsByUrl();
    Set<String> missed = new TreeSet<>(expected);
    missed.removeAll(fetched.keySet());
    Map<String, Long> twice = new TreeMap<>();
    fetched.forEach((u, n) -> {
      if (n > 1 && !u.endsWith("/robots.txt")) {
        twice.put(u, n);
      }
    });
    return new CrawledOnce(missed, twice);
  }

  /** The two requests to {@code host} with the shortest rest between them, for a failure's message. */
  static String shortestRest(RequestLog log, String host) {
    return DemoCluster.shortestRest(log.forHost(host));
  }
}
