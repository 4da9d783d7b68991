package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.Lease;
import dev.crawler.robots.HostRobots;
import dev.crawler.url.CrawlUrl;
import java.util.function.BooleanSupplier;

/**
 * One leased URL on its way through the stages: the lease, the URL parsed once, and what the
 * stages have learnt so far. Used by one worker at a time.
 */
public final class Visit {
  private final Lease lease;
  private final CrawlUrl url;
  private final BooleanSupplier aborted;
  private HostRobots robots;
  private boolean robotsJustFetched;
  private FetchResult result;
  private int requestsSent;
  private boolean refused;

  Visit(Lease lease, BooleanSupplier aborted) {
    this.lease = lease;
    this.url = CrawlUrl.of(lease.url());
    this.aborted = aborted;
  }

  public Lease lease() {
    return lease;
  }

  /** The URL parsed once; null if the lease's URL is not an http(s) URL with a host (see {@link UrlCheck}). */
  public CrawlUrl url() {
    return url;
  }

  /** True once the crawl's stop has cut work in flight short: what is learnt now is not to be recorded. */
  public boolean aborted() {
    return aborted.getAsBoolean();
  }

  /** True once its request was called off before its first byte ({@link RequestTurns#awaitOrRefuse}). */
  boolean refused() {
    return refused;
  }

  void refuse() {
    refused = true;
  }

  /** The host's robots.txt rules, once {@link RobotsCheck} has them. */
  public HostRobots robots() {
    return robots;
  }

  void robots(HostRobots rules, boolean justFetched) {
    this.robots = rules;
    this.robotsJustFetched = justFetched;
  }

  /**
   * How to end a visit that makes no request of its own: a robots.txt just requested for it
   * counts as its host's request (FETCHED: the host waits its delay), else the host's time stays
   * as it was (SKIPPED).
   */
  public FetchOutcome withoutRequest() {
    return robotsJustFetched ? FetchOutcome.FETCHED : FetchOutcome.SKIPPED;
  }

  boolean robotsJustFetched() {
    return robotsJustFetched;
  }

  /** Requests sent for this visit so far: robots.txt, its redirect hops, the page. */
  int requestsSent() {
    return requestsSent;
  }

  void requestSent() {
    requestsSent++;
  }

  /** The fetch's result, once {@link Fetch} has one. */
  public FetchResult result() {
    return result;
  }

  void result(FetchResult fetched) {
    this.result = fetched;
  }
}
