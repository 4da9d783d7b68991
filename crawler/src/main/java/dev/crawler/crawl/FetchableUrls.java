package dev.crawler.crawl;

import dev.crawler.dedup.UrlNormalization;
import okhttp3.HttpUrl;

/**
 * The normalizer's verdict checked against the HTTP client's own reading of the URL. Both follow
 * the URL standards, but not the same edition of IDNA: the normalizer (crawler-commons and the
 * JDK) accepts names OkHttp refuses ({@code xn--zz.example.com}, a 64-letter label) or reads as
 * another name ({@code xn--ab-.com} as {@code ab.com}). Queued, such a URL broke its visit (the
 * robots.txt lookup threw, with a stack trace and no outcome counted); or scope, the host's
 * politeness and the crawl log judged one name while robots.txt and the request went to
 * another. Refused here, they are counted as rejected links.
 */
final class FetchableUrls {
  private FetchableUrls() {}

  static UrlNormalization confirm(UrlNormalization answer) {
    if (!(answer instanceof UrlNormalization.Accepted accepted)) {
      return answer;
    }
    String url = accepted.url();
    HttpUrl parsed = HttpUrl.parse(url);
    if (parsed == null) {
      return new UrlNormalization.Rejected(UrlNormalization.Reason.MALFORMED, "the HTTP client cannot read " + url);
    }
    String host = hostOf(url);
    if (host != null && !host.equals(parsed.host())) {
      return new UrlNormalization.Rejected(UrlNormalization.Reason.MALFORMED,
          "the HTTP client reads host " + host + " as " + parsed.host());
    }
    return answer;
  }

  /**
   * True if the HTTP client can fetch {@code url} as it is (a URL queued before this check existed
   * may not be). An IPv6 literal spelled otherwise than the client spells it passes: a build
   * before RFC 5952 spelling queued such URLs, and the client fetches them all the same.
   */
  static boolean fetchable(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    if (parsed == null) {
      return false;
    }
    String host = hostOf(url);
    return host == null || host.contains(":") || host.equals(parsed.host());
  }

  /** The host of a URL's authority (user info and port left out; an IPv6 literal without its brackets). */
  private static String hostOf(String url) {
    int start = url.indexOf("://") + 3;
    if (start < 3) {
      return null;
    }
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    String authority = url.substring(url.lastIndexOf('@', end - 1) >= start ? url.lastIndexOf('@', end - 1) + 1 : start, end);
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      return close < 0 ? null : authority.substring(1, close);   // OkHttp's host() has no brackets
    }
    int colon = authority.indexOf(':');
    return colon < 0 ? authority : authority.substring(0, colon);
  }
}
