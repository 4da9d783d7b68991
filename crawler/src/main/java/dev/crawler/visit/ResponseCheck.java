package dev.crawler.visit;

import dev.crawler.fetch.FetchResult;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.LinkIntake;
import dev.crawler.record.CrawlOutcome;
import java.time.Duration;
import java.util.List;

/**
 * What the response says before its body is looked at: come back later (429, 503), go there
 * (3xx: the target goes back through the intake, one hop more), no response at all (a failure),
 * or a body the crawl did not read. A redirect and a retry-later are read from the status line,
 * whatever the body's fate: a 301 whose body was cut still points somewhere, and a 503 still asks
 * us to come back. A body to read goes on to {@link FollowLinks}.
 */
final class ResponseCheck implements VisitStage {
  private final LinkIntake intake;
  private final int maxRedirects;
  private final Retries retries;

  ResponseCheck(LinkIntake intake, int maxRedirects, Retries retries) {
    this.intake = intake;
    this.maxRedirects = maxRedirects;
    this.retries = retries;
  }

  @Override
  public Step apply(Visit visit) {
    FetchResult result = visit.result();
    if (result.isRetryLater()) {
      Duration wait = result.retryAfter() == null ? Duration.ZERO : result.retryAfter();
      return retries.retryLater(visit.lease(), CrawlOutcome.RETRY_LATER, wait, result.cause());
    }
    if (result.isRedirect() && result.location() != null) {
      if (visit.lease().redirectHops() >= maxRedirects) {
        return new Step.Done(CrawlOutcome.REDIRECT_LIMIT, FetchOutcome.FETCHED, result.cause());
      }
      intake.take(List.of(result.location()), visit.lease().depth(), visit.lease().url(),
          visit.lease().redirectHops() + 1);
      return new Step.Done(CrawlOutcome.REDIRECT, FetchOutcome.FETCHED, result.cause());
    }
    if (!result.status().answered()) {
      return new Step.Done(CrawlOutcome.ofFailure(result.status()), FetchOutcome.FAILED, result.cause());
    }
    if (result.isRedirect()) {
      return new Step.Done(CrawlOutcome.FETCHED, FetchOutcome.FETCHED, Notes.join(result.cause(), unfollowed(result)));
    }
    if (result.contentSkipped()) {
      return new Step.Done(CrawlOutcome.CONTENT_SKIPPED, FetchOutcome.FETCHED, result.cause());
    }
    return Step.NEXT;
  }

  /** Why a 3xx was not followed: its Location is missing, or not an http(s) URL. */
  private static String unfollowed(FetchResult result) {
    String location = result.responseHeaders().get("Location");
    if (location == null) {
      return "redirect without Location";
    }
    String clipped = location.length() <= 100 ? location : location.substring(0, 97) + "...";
    return "redirect not followed: Location " + clipped + " is not an http(s) URL";
  }
}
