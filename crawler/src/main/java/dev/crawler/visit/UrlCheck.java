package dev.crawler.visit;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.url.FetchableUrls;

/**
 * Ends, without a request or a robots.txt lookup, the visit of a URL the HTTP client cannot
 * fetch as it is: one queued by an older build that did not check (see {@link FetchableUrls}).
 */
final class UrlCheck implements VisitStage {
  @Override
  public Step apply(Visit visit) {
    if (visit.url() == null || FetchableUrls.fetchable(visit.url()) == null) {
      return new Step.Done(CrawlOutcome.UNSUPPORTED_URL, FetchOutcome.SKIPPED,
          "the HTTP client cannot fetch this URL as it is");
    }
    return Step.NEXT;
  }
}
