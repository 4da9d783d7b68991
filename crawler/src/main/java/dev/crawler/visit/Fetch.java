package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import dev.crawler.parse.SitemapReader;
import okhttp3.HttpUrl;

/**
 * The request. Just before its first byte goes out (after any connect) it waits its turn
 * ({@link RequestTurns}): a request that left late must not come closer than the queue's delay to
 * the next, nor after it. A gzipped sitemap is read whatever its content type.
 */
final class Fetch implements VisitStage {
  private final Fetcher fetcher;
  private final RequestTurns turns;
  private final boolean followSitemaps;

  Fetch(Fetcher fetcher, RequestTurns turns, boolean followSitemaps) {
    this.fetcher = fetcher;
    this.turns = turns;
    this.followSitemaps = followSitemaps;
  }

  @Override
  public Step apply(Visit visit) {
    String url = visit.url().url();
    HttpUrl httpUrl = visit.url().httpUrl();
    Runnable startRequest = () -> turns.awaitOrRefuse(visit);
    FetchResult result = followSitemaps && SitemapReader.isGzipSitemapUrl(url)
        ? fetcher.fetchAnyType(httpUrl, startRequest) : fetcher.fetch(httpUrl, startRequest);
    if (visit.aborted()) {
      return Step.LEAVE_OPEN;   // cut short by a stop: nothing recorded, the lease returns on resume
    }
    if (visit.refused()) {
      return Step.Done.putBack();   // called off before its first byte: it comes back under its queue's new rules
    }
    visit.result(result);
    return Step.NEXT;
  }
}
