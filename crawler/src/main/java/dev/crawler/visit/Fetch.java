package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import dev.crawler.frontier.Frontier;
import dev.crawler.parse.SitemapReader;

/**
 * The request. The frontier is told when it actually goes out, so the next request to the queue
 * waits the queue's delay from then, not from the lease. A gzipped sitemap is read whatever its
 * content type.
 */
final class Fetch implements VisitStage {
  private final Fetcher fetcher;
  private final Frontier frontier;
  private final boolean followSitemaps;

  Fetch(Fetcher fetcher, Frontier frontier, boolean followSitemaps) {
    this.fetcher = fetcher;
    this.frontier = frontier;
    this.followSitemaps = followSitemaps;
  }

  @Override
  public Step apply(Visit visit) {
    String url = visit.url().url();
    Runnable requestStarts = () -> requestStarts(visit);
    FetchResult result = followSitemaps && SitemapReader.isGzipSitemapUrl(url)
        ? fetcher.fetchAnyType(url, requestStarts) : fetcher.fetch(url, requestStarts);
    if (visit.aborted()) {
      return Step.LEAVE_OPEN;   // cut short by a stop: nothing recorded, the lease returns on resume
    }
    visit.result(result);
    return Step.NEXT;
  }

  /** A frontier that fails here fails the lease's completion too, which reports it; the fetch goes on. */
  private void requestStarts(Visit visit) {
    try {
      frontier.requestStarts(visit.lease());
    } catch (RuntimeException e) {
      // reported by the completion of this lease
    }
  }
}
