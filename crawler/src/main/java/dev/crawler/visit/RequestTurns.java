package dev.crawler.visit;

import dev.crawler.fetch.RequestRefused;
import dev.crawler.frontier.HostQueues;

/**
 * Holds each request of a visit back until its queue allows it, run just before the request's
 * first byte goes out. The frontier spaces the starts of a queue's requests across visits; within
 * one visit a further request (a robots.txt redirect hop, the page after its robots.txt) also
 * waits the host's delay after the one before, which has just ended.
 */
final class RequestTurns {
  private static final java.time.Duration CLOCK_TICK = java.time.Duration.ofMillis(1);
  private final HostQueues frontier;

  RequestTurns(HostQueues frontier) {
    this.frontier = frontier;
  }

  /**
   * Waits for the visit's next request's turn. A frontier that fails here fails the lease's
   * completion too, which reports it; an interrupt (a stop) lets the request go, and the stop
   * then discards what it brings.
   */
  void await(Visit visit) {
    awaitTurn(visit);
  }

  /**
   * As {@link #await}, then calls the page's request off ({@link RequestRefused}) if its queue may
   * no longer send it: the wait may have been long (a host's delay after its robots.txt), and
   * meanwhile a cluster node may have lost the queue's partition or its group. The visit is marked
   * refused, and its URL goes back to its queue.
   */
  void awaitOrRefuse(Visit visit) {
    awaitTurn(visit);
    if (!visit.aborted() && !frontier.mayRequest(visit.lease())) {
      visit.refuse();
      throw new RequestRefused("its queue may no longer send it");
    }
  }

  private void awaitTurn(Visit visit) {
    try {
      if (visit.requestsSent() > 0) {
        Thread.sleep(visit.lease().hostDelay());
      }
      frontier.startRequest(visit.lease());
      if (!visit.lease().hostDelay().isZero()) {
        // The frontier reads whole milliseconds: a lease handed out as the delay ran out may come
        // up to one before it, counted from the true end of the host's last request.
        Thread.sleep(CLOCK_TICK);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // reported by the completion of this lease
    } finally {
      visit.requestSent();
    }
  }
}
