package dev.crawler.crawl;

/** A crawl cannot start, for a reason the user can fix; the message says how. */
public final class CrawlStartException extends RuntimeException {
  public CrawlStartException(String message) {
    super(message);
  }
}
