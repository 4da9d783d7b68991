package dev.crawler.crawl;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Why and how hard the crawl is stopping. A stop first lets fetches in flight finish (their
 * pages are recorded and their leases completed, so a resume refetches nothing); after the
 * grace period it aborts them, and their leases are handed out again on resume.
 */
final class StopSignal {
  private final AtomicReference<StopReason> reason = new AtomicReference<>();
  private volatile boolean aborted;

  /** Asks the crawl to stop; the first reason given wins. */
  void stop(StopReason why) {
    reason.compareAndSet(null, why);
  }

  /** A failure the crawl cannot go on with: FAILED replaces any reason given before. */
  void fail() {
    reason.set(StopReason.FAILED);
  }

  void abort() {
    aborted = true;
  }

  boolean stopping() {
    return reason.get() != null;
  }

  boolean aborted() {
    return aborted;
  }

  StopReason reason() {
    return reason.get();
  }
}
