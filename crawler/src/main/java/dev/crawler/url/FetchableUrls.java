package dev.crawler.url;

import dev.crawler.dedup.UrlNormalization;
import okhttp3.HttpUrl;

/**
 * The normalizer's verdict checked against the HTTP client's own reading of the URL. Both follow
 * the URL standards, but not the same edition of IDNA: the normalizer (crawler-commons and the
 * JDK) accepts names OkHttp refuses ({@code xn--zz.example.com}, a 64-letter label) or reads as
 * another name ({@code xn--ab-.com} as {@code ab.com}). Queued, such a URL would break its visit
 * (the robots.txt lookup throws), or scope, politeness and the crawl log would judge one name
 * while robots.txt and the request go to another. Refused here, they are counted as rejected links.
 */
public final class FetchableUrls {
  private FetchableUrls() {}

  public static UrlNormalization confirm(UrlNormalization answer) {
    if (!(answer instanceof UrlNormalization.Accepted accepted)) {
      return answer;
    }
    String why = unreadable(accepted.url(), HttpUrl.parse(accepted.url()), false);
    return why == null ? answer : new UrlNormalization.Rejected(UrlNormalization.Reason.MALFORMED, why);
  }

  /**
   * The URL as the HTTP client reads it, or null if it cannot fetch it as it is (a URL an older
   * build queued may not be one). An IPv6 literal spelled otherwise than the client spells it
   * (not RFC 5952) passes: older stores hold such URLs, and the client fetches them all the same.
   */
  public static HttpUrl fetchable(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return unreadable(url, parsed, true) == null ? parsed : null;
  }

  /** As {@link #fetchable(String)}, with the parse the URL carries. */
  public static HttpUrl fetchable(CrawlUrl url) {
    HttpUrl parsed = url.httpUrl();
    return unreadable(url.url(), parsed, true) == null ? parsed : null;
  }

  /** Why the client does not read {@code url} as it is written, or null if it does. */
  private static String unreadable(String url, HttpUrl parsed, boolean anyIpv6Spelling) {
    if (parsed == null) {
      return "the HTTP client cannot read " + url;
    }
    String host = hostOf(url);
    if (host == null || host.equals(parsed.host()) || (anyIpv6Spelling && host.contains(":"))) {
      return null;
    }
    return "the HTTP client reads host " + host + " as " + parsed.host();
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
