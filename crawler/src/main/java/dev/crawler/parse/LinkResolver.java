package dev.crawler.parse;

import java.net.MalformedURLException;
import java.net.URL;
import java.util.Locale;
import org.jsoup.internal.StringUtil;

/**
 * Turns an attribute value into an absolute http(s) URL without fragment, the way a browser
 * resolves it against the page (or its {@code <base href>}), or null when it is no link to crawl.
 * Spaces and non-ASCII characters stay: the crawl's normalizer escapes them.
 *
 * <p>Resolution is jsoup's ({@code Element.absUrl}), called with the base parsed once per page
 * instead of once per link. Three shapes that make up most links skip it, since parsing a
 * {@code java.net.URL} costs about a microsecond, as much as parsing the markup around the link:
 * root-relative paths ({@code /a/b?c}), plain absolute URLs ({@code https://host:port/a}) and
 * relative paths ({@code ../b/c.html}), when they hold no dot segment (but leading ones),
 * backslash or control character. The test suite checks that the
 * shortcut and jsoup agree. Schemes other than http(s) are refused before resolving, since
 * {@code java.net.URL} answers an unknown scheme with an exception, and a page may hold
 * thousands of {@code javascript:} links.
 */
final class LinkResolver {
  private URL base;
  /** "scheme://host[:port]" of the base as jsoup writes it (no user info), or null without a base. */
  private String origin;
  /** The base's path up to and including its last '/', or null if relative paths must be parsed. */
  private String baseDirectory;

  /** @param pageUrl the page's own URL; if it does not parse, only absolute links resolve */
  LinkResolver(String pageUrl) {
    setBase(parse(pageUrl));
  }

  /**
   * Uses {@code href}, resolved against the current base, as the base from now on (the first
   * {@code <base href>}). A base that does not resolve to http(s) is ignored, as browsers ignore
   * a {@code javascript:} or {@code data:} base (WHATWG HTML "set the frozen base URL").
   */
  void rebase(String href) {
    String resolved = resolve(href);
    if (resolved != null) {
      setBase(parse(resolved));
    }
  }

  String resolve(String attribute) {
    // HTML strips leading and trailing ASCII whitespace from URL attributes; trim() also drops
    // other control characters, which the WHATWG URL parser drops too.
    String href = attribute.trim();
    if (href.isEmpty() || href.charAt(0) == '#') {
      return null;
    }
    String shortcut = resolveWithoutParsing(href);
    return shortcut != null ? shortcut : resolveByParsing(href);
  }

  /** The shortcut: a resolved URL for the three common plain shapes, null for anything else. */
  String resolveWithoutParsing(String href) {
    if (href.charAt(0) == '/') {
      boolean networkPath = href.length() > 1 && href.charAt(1) == '/';
      return networkPath || origin == null || !isPlain(href, 0) ? null : withoutFragment(origin + href);
    }
    int authority = href.startsWith("http://") ? 7 : href.startsWith("https://") ? 8 : -1;
    if (authority > 0) {
      return isPlain(href, 0) && isPlainHostAndPort(href, authority) ? withoutFragment(href) : null;
    }
    return resolveRelativePath(href);
  }

  /**
   * A relative path ("page-3.html", "../api/page-3.html?x=1", "./"), resolved against the base's
   * directory: leading "../" climb it, leading "./" stay. Null for anything that could be read
   * another way: a scheme or a ':' before the path ends, a climb above the root (where browsers
   * and java.net.URL differ), and dot segments after the start.
   */
  private String resolveRelativePath(String href) {
    if (baseDirectory == null) {
      return null;
    }
    int start = 0;
    int climbs = 0;
    while (true) {
      if (href.startsWith("../", start)) {
        climbs++;
        start += 3;
      } else if (href.startsWith("./", start)) {
        start += 2;
      } else {
        break;
      }
    }
    if (start < href.length() && ".?#:/".indexOf(href.charAt(start)) >= 0 || !isPlain(href, start)) {
      return null;
    }
    for (int i = start; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c == ':') {
        return null; // "mailto:x", "a:b": a scheme, or a path java.net.URL may read as one
      }
      if (c == '/' || c == '?' || c == '#') {
        break;
      }
    }
    int directoryEnd = baseDirectory.length(); // just past a '/'
    for (int climb = 0; climb < climbs; climb++) {
      if (directoryEnd <= 1) {
        return null;
      }
      directoryEnd = baseDirectory.lastIndexOf('/', directoryEnd - 2) + 1;
    }
    return withoutFragment(origin + baseDirectory.substring(0, directoryEnd) + href.substring(start));
  }

  /** No control character, backslash or dot segment from {@code from} on: nothing a parser would rewrite. */
  private static boolean isPlain(String href, int from) {
    for (int i = from; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c < 0x20 || c == '\\' || c == '.' && i > from && href.charAt(i - 1) == '/') {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings("deprecation") // new URL(String): java.net.URL is what jsoup resolves with
  String resolveByParsing(String href) {
    if (!hasHttpOrNoScheme(href)) {
      return null;
    }
    try {
      URL url = base != null ? StringUtil.resolve(base, slashesForBackslashes(href)) : new URL(href);
      String protocol = url.getProtocol();
      if (!protocol.equals("http") && !protocol.equals("https") || url.getHost().isEmpty()) {
        return null;
      }
      return withoutFragment(url.toExternalForm());
    } catch (MalformedURLException | RuntimeException e) {
      return null; // an href no browser could follow either
    }
  }

  private void setBase(URL url) {
    this.base = url;
    this.origin = url == null ? null
        : url.getProtocol() + "://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort());
    String path = url == null ? null : url.getPath().isEmpty() ? "/" : url.getPath();
    // java.net.URL removes dot segments of the base while resolving; a base with them takes the long way.
    this.baseDirectory = path == null || path.contains("/.") || !path.startsWith("/") ? null
        : path.substring(0, path.lastIndexOf('/') + 1);
  }

  /** A host of letters, digits, dots and hyphens, then an optional ":digits", then the end or '/', '?', '#'. */
  private static boolean isPlainHostAndPort(String href, int start) {
    int i = start;
    while (i < href.length() && isHostChar(href.charAt(i))) {
      i++;
    }
    if (i == start) {
      return false;
    }
    if (i < href.length() && href.charAt(i) == ':') {
      int digits = ++i;
      while (i < href.length() && href.charAt(i) >= '0' && href.charAt(i) <= '9') {
        i++;
      }
      if (i == digits || i - digits > 5) {
        return false;
      }
    }
    if (i == href.length()) {
      return false; // "http://host" without a path: java.net.URL's spelling decides
    }
    char next = href.charAt(i);
    return next == '/' || next == '?' || next == '#';
  }

  private static boolean isHostChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-';
  }

  private static String withoutFragment(String url) {
    int hash = url.indexOf('#');
    return hash < 0 ? url : url.substring(0, hash);
  }

  /** True for "http:", "https:" (any case) or no scheme at all (a relative reference). */
  private static boolean hasHttpOrNoScheme(String href) {
    for (int i = 0; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c == ':') {
        if (i == 0) {
          return true; // ":foo" is a relative path, not a scheme
        }
        String scheme = href.substring(0, i).toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
      }
      boolean schemeChar = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
          || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.');
      if (!schemeChar) {
        return true; // a '/', '?' or other character before any ':' means a relative reference
      }
    }
    return true;
  }

  /**
   * WHATWG URL: in http(s) URLs a backslash before the query counts as a slash
   * ({@code \\other.example\a} is {@code //other.example/a}); java.net.URL keeps it.
   */
  private static String slashesForBackslashes(String href) {
    int end = href.length();
    for (int i = 0; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c == '?' || c == '#') {
        end = i;
        break;
      }
    }
    int backslash = href.indexOf('\\');
    if (backslash < 0 || backslash >= end) {
      return href;
    }
    return href.substring(0, end).replace('\\', '/') + href.substring(end);
  }

  @SuppressWarnings("deprecation") // java.net.URL is what jsoup resolves with
  private static URL parse(String url) {
    try {
      URL parsed = new URL(url);
      String protocol = parsed.getProtocol();
      return (protocol.equals("http") || protocol.equals("https")) && !parsed.getHost().isEmpty() ? parsed : null;
    } catch (MalformedURLException | RuntimeException e) {
      return null;
    }
  }
}
