package dev.crawler.robots;

import static java.util.Objects.requireNonNull;

import crawlercommons.robots.BaseRobotRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What one host's robots.txt allows, as read at {@code fetchedAt}.
 *
 * @param availability how the robots.txt fetch went, which decides the rules (RFC 9309 2.3.1)
 * @param rules the parsed rules; allow-all for {@link Availability#ALLOW_ALL}, disallow-all for
 *     {@link Availability#UNAVAILABLE}
 * @param crawlDelay the Crawl-delay for our agent group, null if none (not part of RFC 9309,
 *     but widely used); not capped here: politeness caps it
 * @param sitemaps the Sitemap lines, in file order
 * @param fetchedAt when the answer arrived, for expiry
 * @param cause why robots.txt is unavailable ("503", "more than 5 redirects"), else null
 */
public record HostRobots(Availability availability, BaseRobotRules rules, Duration crawlDelay,
    List<String> sitemaps, Instant fetchedAt, String cause) {

  public enum Availability {
    /** A 2xx robots.txt, parsed. */
    FOUND,
    /** A 4xx: no robots.txt, everything is allowed (RFC 9309 2.3.1.3). */
    ALLOW_ALL,
    /** A 5xx, a 429, no answer or too many redirects: nothing is allowed for now (RFC 9309 2.3.1.4). */
    UNAVAILABLE
  }

  public HostRobots {
    requireNonNull(availability, "availability");
    requireNonNull(rules, "rules");
    sitemaps = List.copyOf(sitemaps);
    requireNonNull(fetchedAt, "fetchedAt");
  }

  /** Whether the rules allow {@code url}; false for every URL while robots.txt is unavailable. */
  public boolean isAllowed(String url) {
    return rules.isAllowed(url);
  }
}
