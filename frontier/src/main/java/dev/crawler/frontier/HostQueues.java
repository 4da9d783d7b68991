package dev.crawler.frontier;

import java.time.Duration;
import java.util.Optional;

/**
 * What a crawl's fetch workers and visit stages ask of the queues they fetch from: a lease, its
 * completion, the request's turn, and the hosts' robots.txt delays. On one machine this is the
 * {@link Frontier}; a cluster node serves it from the frontiers of the partitions it owns.
 * Thread-safe.
 */
public interface HostQueues {
  /** A URL whose host may be fetched now, waiting up to {@code timeout}; empty if none came. */
  Optional<Lease> next(Duration timeout) throws InterruptedException;

  /** Ends a lease (see {@link Frontier#complete}). */
  void complete(Lease lease, FetchOutcome outcome);

  /** Whether the lease's request may still go out (see {@link Frontier#mayRequest}). */
  boolean mayRequest(Lease lease);

  /** Waits until the lease's request may start (see {@link Frontier#startRequest}). */
  void startRequest(Lease lease) throws InterruptedException;

  /** Sets a host's robots.txt Crawl-delay (see {@link Frontier#setCrawlDelay}). */
  void setCrawlDelay(String hostKey, Duration crawlDelay);

  /** Forgets a host's robots.txt Crawl-delay (see {@link Frontier#clearCrawlDelay}). */
  void clearCrawlDelay(String hostKey);

  /** The counts now, of every queue served. */
  FrontierStats stats();
}
