package dev.crawler.crawl;

/** Why a crawl ended. */
public enum StopReason {
  /** Nothing left in the frontier: every reachable URL in scope was visited. */
  FINISHED("the frontier is empty"),
  /** crawl.limits.max-pages fetched. */
  MAX_PAGES("crawl.limits.max-pages reached"),
  /** crawl.limits.max-duration passed. */
  MAX_DURATION("crawl.limits.max-duration reached"),
  /** Ctrl-C, SIGTERM or a caller's stop(). */
  STOPPED("stopped on request"),
  /** A failure the crawl cannot go on with (a full disk, a broken store); the log says which. */
  FAILED("stopped by an error");

  private final String description;

  StopReason(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** True if the crawl can be continued with `resume`. */
  public boolean resumable() {
    return this != FINISHED;
  }
}
