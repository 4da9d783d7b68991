package dev.crawler.visit;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.Striped;
import dev.crawler.frontier.HostQueues;
import dev.crawler.intake.LinkIntake;
import dev.crawler.robots.HostRobots;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;

/**
 * Takes each robots.txt fetched into the crawl once: its Crawl-delay to the frontier, its Sitemap
 * lines to the intake. robots.txt belongs to an origin (scheme, host, port), but the frontier's
 * politeness unit is the host key, which {@code http://a.com} and {@code https://a.com} share. The
 * host's delay is the largest its origins ask for: an origin without the line (or whose robots.txt
 * is gone) never undoes another's, and a robots.txt fetched again without the line ends the delay
 * it set. An older fetch of an origin, applied after a newer one by a slower worker, is ignored.
 * An unavailable robots.txt says nothing about the delay: the origin keeps the one it had.
 */
final class RobotsApplied {
  /** What was applied of one origin's robots.txt: when it was fetched, and its Crawl-delay (null: none). */
  private record Applied(Instant fetchedAt, Duration crawlDelay) {}

  /** Where a host's Crawl-delay goes: the frontier's {@code setCrawlDelay} and {@code clearCrawlDelay}. */
  interface HostDelays {
    void set(String hostKey, Duration crawlDelay);

    void clear(String hostKey);

    static HostDelays of(HostQueues frontier) {
      return new HostDelays() {
        @Override
        public void set(String hostKey, Duration crawlDelay) {
          frontier.setCrawlDelay(hostKey, crawlDelay);   // the frontier caps it at politeness.max-crawl-delay
        }

        @Override
        public void clear(String hostKey) {
          frontier.clearCrawlDelay(hostKey);
        }
      };
    }
  }

  private final HostDelays delays;
  private final LinkIntake intake;
  private final boolean followSitemaps;
  /**
   * One queue's origins, with their delays counted so the largest is found without a walk over
   * them all: under {@code queue-by: ip} a shared server's queue holds thousands of sites.
   */
  private static final class Origins {
    final Map<String, Applied> applied = new HashMap<>(2);
    final TreeMap<Duration, Integer> delays = new TreeMap<>();

    void put(String origin, Applied now) {
      Applied before = applied.put(origin, now);
      if (before != null && before.crawlDelay() != null) {
        delays.computeIfPresent(before.crawlDelay(), (d, n) -> n == 1 ? null : n - 1);
      }
      if (now.crawlDelay() != null) {
        delays.merge(now.crawlDelay(), 1, Integer::sum);
      }
    }

    /** The largest Crawl-delay of the origins, null if none has one. */
    Duration largest() {
      return delays.isEmpty() ? null : delays.lastKey();
    }
  }

  /**
   * Per queue key (a host, a domain or an address), its origins' robots.txt last applied. Bounded
   * like the robots cache's hosts.
   */
  private final Cache<String, Origins> byHost = CacheBuilder.newBuilder().maximumSize(100_000).build();
  /** A host's changes in order (its frontier write included), without one lock for every host. */
  private final Striped<Lock> locks = Striped.lock(64);

  /** @param intake where Sitemap lines go; may be null if {@code followSitemaps} is false */
  RobotsApplied(HostDelays delays, LinkIntake intake, boolean followSitemaps) {
    this.delays = delays;
    this.intake = intake;
    this.followSitemaps = followSitemaps;
  }

  /** Applies {@code rules}, the robots.txt of {@code origin} ({@code RobotsCache.originOf}), unless that fetch was applied already. */
  void apply(String hostKey, String origin, HostRobots rules) {
    Lock lock = locks.get(hostKey);
    lock.lock();
    try {
      Origins origins = byHost.getIfPresent(hostKey);
      boolean known = origins != null;
      Applied last = known ? origins.applied.get(origin) : null;
      if (last != null && !rules.fetchedAt().isAfter(last.fetchedAt())) {
        return;   // applied already, or older than what was
      }
      boolean unavailable = rules.availability() == HostRobots.Availability.UNAVAILABLE;
      if (unavailable && last == null) {
        // Says nothing, and must not make the host known: the first answer that does say
        // something then clears a delay the frontier may hold from before (a resume).
        return;
      }
      if (!known) {
        origins = new Origins();
        byHost.put(hostKey, origins);
      }
      Duration before = origins.largest();
      Duration delay = unavailable ? (last == null ? null : last.crawlDelay()) : rules.crawlDelay();
      origins.put(origin, new Applied(rules.fetchedAt(), delay));
      Duration after = origins.largest();
      if (after != null && (!known || !after.equals(before))) {
        delays.set(hostKey, after);
      } else if (after == null && (known ? before != null : !unavailable)) {
        // Unknown here (a new host, or one the bounded map let go, or a resume): the frontier may
        // hold a delay from before; it writes nothing if it holds none.
        delays.clear(hostKey);
      }
    } finally {
      lock.unlock();
    }
    if (followSitemaps && !rules.sitemaps().isEmpty()) {
      intake.take(rules.sitemaps(), 0, null, 0);
    }
  }
}
