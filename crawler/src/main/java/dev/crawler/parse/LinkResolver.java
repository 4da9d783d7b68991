package dev.crawler.parse;

import java.util.Locale;
import okhttp3.HttpUrl;

/**
 * Turns an attribute value into an absolute http(s) URL without fragment, the way a browser
 * resolves it against the page (or its {@code <base href>}), or null when it is no link to crawl.
 * A link to the page itself (an empty or fragment-only href) is none: the page is known.
 * Non-ASCII characters the shortcut passes stay: the crawl's normalizer escapes them.
 *
 * <p>Resolution is the WHATWG URL Standard's, as OkHttp's {@link HttpUrl#resolve} implements it
 * (special-scheme quirks such as {@code http:example.com} relative to an http base, backslashes
 * as slashes, dot segments), after the standard's own first steps that OkHttp leaves out: tabs
 * and newlines removed anywhere. The host's last word (UTS 46, IPv4 number forms) is the
 * normalizer's, which every URL meets next. Three shapes that make up most links skip the parse:
 * root-relative paths ({@code /a/b?c}), plain absolute URLs ({@code https://host:port/a}) and
 * relative paths ({@code ../b/c.html}), when they hold no dot segment (but leading ones),
 * backslash, space or control character; the test suite checks that once normalized they agree with
 * the parse. Schemes other than http(s) are refused before resolving, since a page may hold
 * thousands of {@code javascript:} links.
 */
final class LinkResolver {
  private HttpUrl base;
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
    // HTML strips leading and trailing ASCII whitespace from URL attributes, and the URL parser
    // leading and trailing C0 controls and spaces: trim() does both.
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
   * another way: a scheme or a ':' before the path ends, a climb above the root (left to the
   * parse), and dot segments after the start.
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
        return null; // "mailto:x", "a:b": a scheme, or left to the parse
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

  /**
   * No control character, space, backslash or dot segment from {@code from} on: nothing a parser
   * would rewrite. (A space the shortcut passed could end the URL once the fragment is cut, where
   * the normalizer would trim it off.)
   */
  private static boolean isPlain(String href, int from) {
    for (int i = from; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c <= 0x20 || c == '\\' || c == '.' && i > from && href.charAt(i - 1) == '/') {
        return false;
      }
    }
    return true;
  }

  String resolveByParsing(String href) {
    if (!hasHttpOrNoScheme(href)) {
      return null;
    }
    String cleaned = withoutTabsAndNewlines(href);
    HttpUrl url = base != null ? base.resolve(cleaned) : HttpUrl.parse(cleaned);
    return url == null ? null : withoutFragment(url.toString());
  }

  private void setBase(HttpUrl url) {
    this.base = url;
    if (url == null) {
      this.origin = null;
      this.baseDirectory = null;
      return;
    }
    String host = url.host().indexOf(':') >= 0 ? "[" + url.host() + "]" : url.host();
    boolean defaultPort = url.port() == HttpUrl.defaultPort(url.scheme());
    this.origin = url.scheme() + "://" + host + (defaultPort ? "" : ":" + url.port());
    String path = url.encodedPath();
    this.baseDirectory = path.substring(0, path.lastIndexOf('/') + 1);
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
      return false; // "http://host" without a path: the parse adds the '/'
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

  /** WHATWG URL, basic URL parser: "remove all ASCII tab or newline from input". */
  private static String withoutTabsAndNewlines(String href) {
    for (int i = 0; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') {
        StringBuilder out = new StringBuilder(href.length()).append(href, 0, i);
        for (int j = i + 1; j < href.length(); j++) {
          char d = href.charAt(j);
          if (d != '\t' && d != '\n' && d != '\r') {
            out.append(d);
          }
        }
        return out.toString();
      }
    }
    return href;
  }

  /** The page's URL as the base, or null if it is not an http(s) URL (then only absolute links resolve). */
  private static HttpUrl parse(String url) {
    return HttpUrl.parse(withoutTabsAndNewlines(url.trim()));
  }
}
