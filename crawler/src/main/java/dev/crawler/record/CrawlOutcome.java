package dev.crawler.record;

import dev.crawler.fetch.FetchStatus;

/**
 * What happened to one URL the crawl took from the frontier: the outcome column of the crawl
 * log and a counter of the stats line. The HTTP status is recorded beside it, so this says
 * what the crawl did, not what the server said.
 */
public enum CrawlOutcome {
  /** The server answered and the body was kept (any status but the ones below). */
  FETCHED,
  /** The server answered; the body was cut at fetch.max-content-bytes. */
  TRUNCATED,
  /** The server answered with a content type not in fetch.accepted-content-types; the body was not read. */
  CONTENT_SKIPPED,
  /** A 3xx whose Location went back through normalize, scope and URL-seen. */
  REDIRECT,
  /** A 3xx past fetch.max-redirects hops from the first URL: not followed. */
  REDIRECT_LIMIT,
  /** 429 or 503: the URL went back to its host's queue, the host waits; after 5 retries it is given up (the detail says so). */
  RETRY_LATER,
  /** robots.txt disallows the URL: never requested. */
  ROBOTS_DENIED,
  /** robots.txt answered 5xx or could not be fetched: the URL waits (RFC 9309 2.3.1.4); after 5 retries it is given up. */
  ROBOTS_UNAVAILABLE,
  /** The host's or the crawl's page budget is spent: not requested. */
  BUDGET_EXCEEDED,
  TIMEOUT,
  DNS_FAILURE,
  CONNECTION_REFUSED,
  CONNECTION_RESET,
  TLS_FAILURE,
  PRIVATE_ADDRESS,
  PROTOCOL_ERROR,
  UNSUPPORTED_URL,
  IO_ERROR;

  /**
   * Whether a URL with this outcome spent a page of the crawl's limits: all but those decided
   * before the page budget is asked (robots.txt, and the budget itself).
   */
  public boolean spentAPage() {
    return this != ROBOTS_DENIED && this != ROBOTS_UNAVAILABLE && this != BUDGET_EXCEEDED;
  }

  /** The outcome of a fetch that got no response. */
  public static CrawlOutcome ofFailure(FetchStatus status) {
    return switch (status) {
      case RESPONSE -> throw new IllegalArgumentException("RESPONSE is not a failure");
      case TIMEOUT -> TIMEOUT;
      case DNS_FAILURE -> DNS_FAILURE;
      case CONNECTION_REFUSED -> CONNECTION_REFUSED;
      case CONNECTION_RESET -> CONNECTION_RESET;
      case TLS_FAILURE -> TLS_FAILURE;
      case PRIVATE_ADDRESS -> PRIVATE_ADDRESS;
      case PROTOCOL_ERROR -> PROTOCOL_ERROR;
      case UNSUPPORTED_URL -> UNSUPPORTED_URL;
      case IO_ERROR -> IO_ERROR;
    };
  }
}
