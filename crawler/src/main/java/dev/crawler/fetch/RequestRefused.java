package dev.crawler.fetch;

/**
 * Thrown by a request's start hook ({@link Fetcher#fetch(String, Runnable)}) to call the request
 * off just before its first byte: the hook's queue may no longer send it (a cluster node's
 * partition leaving it, or a node cut off from its group). The fetch then ends unanswered, and
 * the caller puts its URL back. An expected outcome, so it carries no stack trace.
 */
public final class RequestRefused extends RuntimeException {
  public RequestRefused(String why) {
    super(why, null, false, false);
  }
}
