package dev.crawler.visit;

import dev.crawler.frontier.HostQueues;

/**
 * Puts the URL back, with no request made, if its queue got stricter since its lease: another
 * fetch of the queue (another host of a domain queue, say) learnt a robots.txt Crawl-delay
 * meanwhile. It comes back under the queue's new delay and connection limit. Stands before the
 * page's request, after robots.txt (which may have taken a while), and first waits for a
 * robots.txt lookup of the queue that is under way.
 */
final class QueueGate implements VisitStage {
  private final HostQueues frontier;
  private final RobotsLookups lookups;

  /** @param lookups robots.txt lookups to wait for first (of other hosts of the queue) */
  QueueGate(HostQueues frontier, RobotsLookups lookups) {
    this.frontier = frontier;
    this.lookups = lookups;
  }

  @Override
  public Step apply(Visit visit) {
    if (!lookups.awaitNone(visit.lease().hostKey(), visit::aborted)) {
      return Step.LEAVE_OPEN;   // a stop cut the wait short
    }
    return frontier.mayRequest(visit.lease()) ? Step.NEXT : Step.Done.putBack();
  }
}
