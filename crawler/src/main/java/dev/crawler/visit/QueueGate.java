package dev.crawler.visit;

import dev.crawler.frontier.Frontier;

/**
 * Puts the URL back, with no request made, if its queue got stricter since its lease: another
 * fetch of the queue (another host of a domain queue, say) learnt a robots.txt Crawl-delay
 * meanwhile. It comes back under the queue's new delay and connection limit. Stands before each
 * stage that may send a request, since the one before it may have taken a while.
 */
final class QueueGate implements VisitStage {
  private final Frontier frontier;

  QueueGate(Frontier frontier) {
    this.frontier = frontier;
  }

  @Override
  public Step apply(Visit visit) {
    return frontier.mayRequest(visit.lease()) ? Step.NEXT : Step.Done.putBack();
  }
}
