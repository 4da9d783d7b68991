package dev.crawler.visit;

/** The crawl log's detail column, put together from what went wrong and what the crawl made of it. */
final class Notes {
  private Notes() {}

  /** "cause; note", either alone when the other is null, or null when both are. */
  static String join(String cause, String note) {
    return cause == null ? note : note == null ? cause : cause + "; " + note;
  }
}
