package dev.crawler.visit;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.record.CrawlOutcome;
import java.util.Objects;

/** What a {@link VisitStage} decides: go on, the visit is done, or the lease stays open. */
public sealed interface Step {
  /** Go on to the next stage. */
  Step NEXT = new Next();

  /** Go on to the next stage. */
  record Next() implements Step {}

  /**
   * The visit is over. Its URL gets a crawl-log line and is counted, unless {@code outcome} is
   * null (a URL put back before its request, which comes again); its lease is completed with
   * {@code scheduling}, which decides its host's next time.
   *
   * @param note for the crawl log's detail column, or null
   */
  record Done(CrawlOutcome outcome, FetchOutcome scheduling, String note) implements Step {
    public Done {
      Objects.requireNonNull(scheduling, "scheduling");
    }

    public Done(CrawlOutcome outcome, FetchOutcome scheduling) {
      this(outcome, scheduling, null);
    }

    /** Back to its queue to wait its host's delay, with no request made and nothing recorded. */
    public static Done putBack() {
      return new Done(null, FetchOutcome.DEFERRED);
    }
  }

  /**
   * The visit stops here and its lease stays open: the URL is handed out again when the crawl
   * resumes. For a visit cut short by a stop, or one that the crawl's page budget has no page for.
   */
  record LeaveOpen() implements Step {}

  /** The one {@link LeaveOpen}. */
  Step LEAVE_OPEN = new LeaveOpen();
}
