package dev.crawler.visit;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.crawler.frontier.HostQueues;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.robots.HostRobots;
import dev.crawler.robots.RobotsCache;
import java.time.Duration;
import java.time.Instant;

/**
 * robots.txt first: its rules for the URL (read from the cache, or fetched now), its Crawl-delay
 * and Sitemap lines taken into the crawl ({@link RobotsApplied}); one lookup at a time per queue
 * ({@link RobotsLookups}), and none for a lease its queue has grown stricter than since (it goes
 * back to its queue, as {@link QueueGate} puts it). A disallowed URL ends here; an
 * unreachable robots.txt puts the URL back for later (RFC 9309 2.3.1.4: disallow for now). A
 * robots.txt just requested for this visit is a request to the host like any other: it and each
 * of its redirect hops wait their turn ({@link RequestTurns}), and the page goes back to its
 * queue to wait the host's delay, now with the Crawl-delay applied.
 */
final class RobotsCheck implements VisitStage {
  /** How long a URL waits when its host's robots.txt cannot be read. */
  static final Duration ROBOTS_UNAVAILABLE_RETRY = Duration.ofMinutes(1);
  /** URLs put back at once to wait their host's delay after its robots.txt was fetched for them. */
  private static final int DEFERRED_TRACKED = 100_000;

  private final HostQueues frontier;
  private final RobotsCache robots;
  private final RobotsApplied applied;
  private final Retries retries;
  private final RobotsLookups lookups;
  private final RequestTurns turns;
  private final Cache<String, Boolean> deferred = CacheBuilder.newBuilder().maximumSize(DEFERRED_TRACKED).build();

  RobotsCheck(HostQueues frontier, RobotsCache robots, RobotsApplied applied, Retries retries, RobotsLookups lookups,
      RequestTurns turns) {
    this.frontier = frontier;
    this.robots = robots;
    this.applied = applied;
    this.retries = retries;
    this.lookups = lookups;
    this.turns = turns;
  }

  @Override
  public Step apply(Visit visit) {
    String url = visit.url().url();
    Instant asked = Instant.now();
    HostRobots rules = lookups.exclusively(visit.lease().hostKey(), visit::aborted, () -> {
      if (!frontier.mayRequest(visit.lease())) {
        return null;   // the queue learnt a Crawl-delay since the lease (perhaps from the lookup waited for)
      }
      HostRobots found = robots.forUrl(visit.url().httpUrl(), () -> turns.await(visit));
      if (!visit.aborted()) {
        applied.apply(visit.lease().hostKey(), RobotsCache.originOf(visit.url().httpUrl()), found);
      }
      return found;
    });
    if (visit.aborted()) {
      return Step.LEAVE_OPEN;   // robots.txt cut short by a stop: nothing recorded, the lease returns on resume
    }
    if (rules == null) {
      return Step.Done.putBack();   // to come back under the queue's new delay and connection limit
    }
    if (rules.availability() == HostRobots.Availability.UNAVAILABLE) {
      return retries.retryLater(visit.lease(), CrawlOutcome.ROBOTS_UNAVAILABLE, ROBOTS_UNAVAILABLE_RETRY, rules.cause());
    }
    boolean justFetched = !rules.fetchedAt().isBefore(asked);
    visit.robots(rules, justFetched);
    if (!rules.isAllowed(url)) {
      return new Step.Done(CrawlOutcome.ROBOTS_DENIED, visit.withoutRequest());
    }
    boolean deferredBefore = deferred.asMap().remove(url) != null;
    if (justFetched && !deferredBefore) {
      // Once only: if robots.txt was fetched again by the time the URL came back (its answers
      // expire sooner than the host's delay), waiting again would wait forever.
      deferred.put(url, Boolean.TRUE);
      return Step.Done.putBack();
    }
    return Step.NEXT;
  }
}
