package dev.crawler.robots;

import static dev.crawler.robots.HostRobots.Availability.ALLOW_ALL;
import static dev.crawler.robots.HostRobots.Availability.FOUND;
import static dev.crawler.robots.HostRobots.Availability.UNAVAILABLE;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRulesMode;
import crawlercommons.robots.SimpleRobotRulesParser;
import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.FetchStatus;
import dev.crawler.fetch.Fetcher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches and reads one host's robots.txt as RFC 9309 section 2.3 says: follow up to five
 * redirects, parse at most the first 512 KiB, treat 4xx as "no robots.txt" and 5xx or no
 * answer as "disallow everything for now". Never throws for anything the server sends: the
 * parser takes any bytes.
 */
final class RobotsReader {
  private static final Logger log = LoggerFactory.getLogger(RobotsReader.class);

  /** RFC 9309 2.3.1.2: "crawlers SHOULD follow at least five consecutive redirects". */
  static final int MAX_REDIRECTS = 5;
  /** RFC 9309 2.5: "crawlers SHOULD impose a parsing limit ... at least 500 kibibytes". */
  static final long MAX_ROBOTS_BYTES = 512 * 1024;

  private final Fetcher fetcher;
  private final List<String> agentNames;
  private final InstantSource clock;
  private final Consumer<FetchResult> onFetch;
  private final SimpleRobotRulesParser parser;
  private final AtomicLong fetches = new AtomicLong();

  RobotsReader(Fetcher fetcher, String agentName, InstantSource clock, Consumer<FetchResult> onFetch) {
    this.fetcher = fetcher;
    this.agentNames = List.of(agentName);
    this.clock = clock;
    this.onFetch = onFetch;
    // No crawl-delay ceiling in the parser: above it, it would disallow the whole host; the
    // crawl's politeness caps the delay instead. No per-line warnings: a garbage robots.txt is
    // common and says nothing the operator can act on (the parser still logs one line).
    this.parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 0);
  }

  long fetches() {
    return fetches.get();
  }

  /**
   * A fetched robots.txt: the rules, and what a {@link RobotsStore} keeps to read them again
   * (null when the answer is not worth keeping: robots.txt unavailable).
   */
  record Answer(HostRobots robots, StoredRobots stored) {}

  /**
   * @param robotsUrl {@code scheme://host:port/robots.txt}
   * @param beforeEachRequest run as each request (each redirect hop) is about to go out; it may hold it back
   */
  Answer read(String robotsUrl, Runnable beforeEachRequest) {
    String target = robotsUrl;
    for (int redirects = 0; ; redirects++) {
      FetchResult result = fetcher.fetchAnyType(target, MAX_ROBOTS_BYTES, beforeEachRequest);
      fetches.incrementAndGet();
      onFetch.accept(result);
      if (!result.isRedirect()) {
        return interpret(result);
      }
      if (redirects == MAX_REDIRECTS) {
        // RFC 9309 2.3.1.2 lets a crawler read a longer chain as "unavailable", which 2.3.1.3
        // defines as allow-all (as for a 4xx), and that is what Google does: a site that loops
        // its robots.txt has no rules to give, and the host is not down.
        Instant now = clock.instant();
        return new Answer(allowAll(now), new StoredRobots(ALLOW_ALL, target, null, new byte[0], now));
      }
      if (result.location() == null) {
        return new Answer(unavailable(result.httpStatus() + " redirect without a usable Location"), null);
      }
      target = result.location();
    }
  }

  private Answer interpret(FetchResult result) {
    if (result.status() != FetchStatus.RESPONSE) {
      return new Answer(unavailable(result.status() + ": " + result.cause()), null);
    }
    int code = result.httpStatus();
    Instant now = clock.instant();
    if (code >= 200 && code < 300) {
      HostRobots found = found(result.url(), result.body(), result.contentType(), now);
      return new Answer(found, found.availability() == FOUND
          ? new StoredRobots(FOUND, result.url(), result.contentType(), result.body(), now) : null);
    }
    // RFC 9309 2.3.1.3 lets a 4xx mean "no robots.txt"; a 429 asks us to slow down, and a
    // crawler that read it as "allow all" would do the opposite.
    if (code >= 400 && code < 500 && code != 429) {
      return new Answer(allowAll(now), new StoredRobots(ALLOW_ALL, result.url(), null, new byte[0], now));
    }
    return new Answer(unavailable("HTTP " + code), null);
  }

  /** The rules of an answer kept in a {@link RobotsStore}, parsed again from its bytes. */
  HostRobots fromStored(StoredRobots stored) {
    return stored.availability() == FOUND
        ? found(stored.url(), stored.body(), stored.contentType(), stored.fetchedAt())
        : allowAll(stored.fetchedAt());
  }

  private HostRobots found(String url, byte[] body, String contentType, Instant fetchedAt) {
    BaseRobotRules rules;
    try {
      rules = parser.parseContent(url, CrawlDelayLines.readable(body, contentType), contentType, agentNames);
    } catch (RuntimeException e) {
      // The parser takes any bytes; if it ever fails, err on the side of not crawling.
      log.warn("robots.txt parser failed on {}: {}; the host waits as if robots.txt were unavailable",
          url, e.toString());
      return unavailable("parser failed: " + e.getClass().getSimpleName());
    }
    long delay = rules.getCrawlDelay();
    Duration crawlDelay = delay == BaseRobotRules.UNSET_CRAWL_DELAY ? null : Duration.ofMillis(Math.max(0, delay));
    return new HostRobots(FOUND, rules, crawlDelay, rules.getSitemaps(), fetchedAt, null);
  }

  private static HostRobots allowAll(Instant fetchedAt) {
    return new HostRobots(ALLOW_ALL, new SimpleRobotRules(RobotRulesMode.ALLOW_ALL), null, List.of(), fetchedAt, null);
  }

  private HostRobots unavailable(String cause) {
    SimpleRobotRules none = new SimpleRobotRules(RobotRulesMode.ALLOW_NONE);
    none.setDeferVisits(true);
    return new HostRobots(UNAVAILABLE, none, null, List.of(), clock.instant(), cause);
  }
}
