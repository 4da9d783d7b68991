package dev.crawler.dedup;

/**
 * What {@link UrlNormalizer} made of a URL: its one spelling, or why it was refused.
 * Web input never throws; callers switch on the two cases.
 */
public sealed interface UrlNormalization {

  /** The URL in its normal form. */
  record Accepted(String url) implements UrlNormalization {}

  /** A URL that cannot be crawled, with the reason and the detail to log. */
  record Rejected(Reason reason, String detail) implements UrlNormalization {}

  /** Why a URL was refused; counted by the crawler under these names. */
  enum Reason {
    /** Not a URL: no scheme, no host, an unparseable authority or escape. */
    MALFORMED,
    /** A scheme other than http and https: mailto, javascript, ftp, data, ... */
    UNSUPPORTED_SCHEME,
    /** Longer than the configured maximum, before or after normalization. */
    TOO_LONG
  }

  static UrlNormalization accepted(String url) {
    return new Accepted(url);
  }

  static UrlNormalization rejected(Reason reason, String detail) {
    return new Rejected(reason, detail);
  }
}
