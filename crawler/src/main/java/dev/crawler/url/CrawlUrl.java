package dev.crawler.url;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import okhttp3.HttpUrl;

/**
 * A normalized http(s) URL as the crawl carries it from scope to queue key, robots.txt, fetch
 * and records: the string, and its pieces found by one scan without building a
 * {@code java.net.URI} (scope runs for every link of every page). What is dearer to work out
 * (the registered domain, OkHttp's parse) is worked out once, when first asked for.
 * Thread-safe: the lazily found parts are the same whichever thread finds them.
 */
public final class CrawlUrl {
  private final String url;
  /** 80 for http, 443 for https. */
  private final int defaultPort;
  /** The host in lower case, IPv6 literals with their brackets. */
  private final String host;
  /** The explicit port, or -1. */
  private final int port;
  /** Index of the path ('/'), or of the query or the end when there is no path. */
  private final int pathStart;
  /** Index just after the path. */
  private final int pathEnd;
  /** Index just after the query; the query starts after the '?' at {@code pathEnd} if there is one. */
  private final int queryEnd;
  private volatile String registeredDomain;
  private volatile HttpUrl httpUrl;

  private CrawlUrl(String url, int defaultPort, String host, int port, int pathStart, int pathEnd, int queryEnd) {
    this.url = url;
    this.defaultPort = defaultPort;
    this.host = host;
    this.port = port;
    this.pathStart = pathStart;
    this.pathEnd = pathEnd;
    this.queryEnd = queryEnd;
  }

  /**
   * The URL's parts, or null if {@code url} is not an http(s) URL with a host and a valid port.
   * {@code url} is taken as it is: the normalizer's output, or a URL the crawl stored.
   */
  public static CrawlUrl of(String url) {
    int defaultPort;
    int authorityStart;
    if (url.regionMatches(true, 0, "http://", 0, 7)) {
      defaultPort = 80;
      authorityStart = 7;
    } else if (url.regionMatches(true, 0, "https://", 0, 8)) {
      defaultPort = 443;
      authorityStart = 8;
    } else {
      return null;
    }
    int n = url.length();
    int authorityEnd = authorityStart;
    while (authorityEnd < n && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
      authorityEnd++;
    }
    int hostStart = url.lastIndexOf('@', authorityEnd - 1) + 1;
    hostStart = Math.max(hostStart, authorityStart);
    int hostEnd;
    if (hostStart < authorityEnd && url.charAt(hostStart) == '[') {
      int close = url.indexOf(']', hostStart);
      if (close < 0 || close >= authorityEnd) {
        return null;
      }
      hostEnd = close + 1;
    } else {
      hostEnd = url.indexOf(':', hostStart);
      hostEnd = hostEnd < 0 || hostEnd > authorityEnd ? authorityEnd : hostEnd;
    }
    if (hostEnd == hostStart) {
      return null;
    }
    int port = -1;
    if (hostEnd < authorityEnd) {
      if (url.charAt(hostEnd) != ':') {
        return null; // "[::1]x"
      }
      int digits = authorityEnd - hostEnd - 1;
      if (digits > 5) {
        return null;
      }
      for (int i = hostEnd + 1; i < authorityEnd; i++) {
        char c = url.charAt(i);
        if (c < '0' || c > '9') {
          return null;
        }
        port = (port < 0 ? 0 : port * 10) + (c - '0');
      }
      if (port > 65535) {
        return null;
      }
    }
    int pathEnd = authorityEnd;
    while (pathEnd < n && url.charAt(pathEnd) != '?' && url.charAt(pathEnd) != '#') {
      pathEnd++;
    }
    int queryEnd = pathEnd;
    if (pathEnd < n && url.charAt(pathEnd) == '?') {
      queryEnd = url.indexOf('#', pathEnd);
      queryEnd = queryEnd < 0 ? n : queryEnd;
    }
    String host = url.substring(hostStart, hostEnd).toLowerCase(Locale.ROOT);
    return new CrawlUrl(url, defaultPort, host, port, authorityEnd, pathEnd, queryEnd);
  }

  /**
   * As {@link #of}, for a URL that must be one.
   *
   * @throws IllegalArgumentException if it is not an http(s) URL with a host and a valid port
   */
  public static CrawlUrl parse(String url) {
    CrawlUrl parsed = of(url);
    if (parsed == null) {
      throw new IllegalArgumentException("Not an http(s) URL with a host and a valid port: " + url);
    }
    return parsed;
  }

  /** The URL as a string, as it was given. */
  public String url() {
    return url;
  }

  /** The host in lower case, IPv6 literals with their brackets. */
  public String host() {
    return host;
  }

  /** The explicit port, or -1. */
  public int port() {
    return port;
  }

  public boolean isHttps() {
    return defaultPort == 443;
  }

  /** The host, plus ":port" when the port is not the scheme's default: the queue key by host. */
  public String hostKey() {
    return port == -1 || port == defaultPort ? host : host + ":" + port;
  }

  /**
   * The domain registered under a public suffix ("example.co.uk" for "www.example.co.uk"); a
   * host with no public suffix, or an IP address, is its own domain. Private suffixes
   * (github.io, blogspot.com) count, so each user's site is a domain of its own.
   */
  public String registeredDomain() {
    String domain = registeredDomain;
    if (domain == null) {
      domain = isIpLiteral() ? host : EffectiveTldFinder.getAssignedDomain(host, false, false);
      registeredDomain = domain;
    }
    return domain;
  }

  /** OkHttp's parse of the URL, for the fetch; null if OkHttp cannot take it as it is. */
  public HttpUrl httpUrl() {
    HttpUrl parsed = httpUrl;
    if (parsed == null) {
      parsed = HttpUrl.parse(url);
      httpUrl = parsed;
    }
    return parsed;
  }

  public boolean isIpLiteral() {
    if (host.startsWith("[")) {
      return true;
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if ((c < '0' || c > '9') && c != '.') {
        return false;
      }
    }
    return true; // all digits and dots: an IPv4 address (a normalized URL spells them so)
  }

  /** Non-empty query parameters: "a=1&&b" has two. */
  public int queryParameters() {
    if (pathEnd == queryEnd) {
      return 0;
    }
    int count = 0;
    boolean inParameter = false;
    for (int i = pathEnd + 1; i < queryEnd; i++) {
      if (url.charAt(i) == '&') {
        inParameter = false;
      } else if (!inParameter) {
        inParameter = true;
        count++;
      }
    }
    return count;
  }

  /** Paths with at most this many segments are compared pairwise; longer ones are counted in a map. */
  private static final int PAIRWISE_SEGMENTS = 32;

  /** True if one non-empty path segment occurs more than {@code max} times (case matters, as in paths). */
  public boolean repeatsASegmentMoreThan(int max) {
    int[] bounds = new int[Math.min(pathEnd - pathStart, 2 * PAIRWISE_SEGMENTS + 2)];
    int segments = 0;
    int i = pathStart;
    while (i < pathEnd) {
      while (i < pathEnd && url.charAt(i) == '/') {
        i++;
      }
      int start = i;
      while (i < pathEnd && url.charAt(i) != '/') {
        i++;
      }
      if (i > start) {
        if (2 * segments + 1 >= bounds.length) {
          return repeatsInMap(max); // a long path: count segments in a map instead
        }
        bounds[2 * segments] = start;
        bounds[2 * segments + 1] = i;
        segments++;
      }
    }
    if (segments <= max) {
      return false;
    }
    for (int a = 0; a < segments; a++) {
      int start = bounds[2 * a];
      int length = bounds[2 * a + 1] - start;
      int seen = 1;
      for (int b = a + 1; b < segments; b++) {
        if (bounds[2 * b + 1] - bounds[2 * b] == length && url.regionMatches(bounds[2 * b], url, start, length)
            && ++seen > max) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean repeatsInMap(int max) {
    Map<String, Integer> counts = new HashMap<>();
    for (String segment : url.substring(pathStart, pathEnd).split("/")) {
      if (!segment.isEmpty() && counts.merge(segment, 1, Integer::sum) > max) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CrawlUrl other && url.equals(other.url);
  }

  @Override
  public int hashCode() {
    return url.hashCode();
  }

  @Override
  public String toString() {
    return url;
  }
}
