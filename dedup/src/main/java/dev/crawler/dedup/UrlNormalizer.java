package dev.crawler.dedup;

import com.google.common.net.InetAddresses;
import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.crawler.dedup.UrlNormalization.Reason;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One URL, one spelling. The host is read as the WHATWG URL Standard reads it ({@link UrlHost}:
 * UTS 46 IDNA, IPv4 number forms, forbidden code points), as are the standard's quirks of
 * absolute http(s) URLs (C0 controls and spaces trimmed, tabs and newlines dropped, optional
 * slashes after the scheme, backslashes as slashes, user info up to the last '@').
 * crawler-commons' {@link BasicURLNormalizer} does the path and the rest of the spelling:
 * lower-case scheme, trailing dot of the host, default port, empty path to "/", dot segments,
 * percent-escapes (unreserved characters decoded, hex upper-cased, unsafe characters escaped,
 * a '%' that starts no escape too). What it changes beyond the standard's own spelling: user
 * info and the fragment are dropped, an empty query goes with its '?', and some URLs the
 * standard takes are refused as no fetch can use them (port 0, a host that is not letters,
 * digits, '-', '_' and '.'). This class adds what BasicURLNormalizer lacks: a
 * strict http(s)-only gate with reasons, removal of tracking and session parameters by
 * pattern (from the query and from ";jsessionid="-style path parameters), optional query
 * sorting (BasicURLNormalizer always sorts; sorting is a choice here, since some sites
 * give order meaning), and a length limit.
 *
 * <p>Absolute URLs only: relative links are resolved against their page (and its
 * {@code <base href>}) before they come here. Thread-safe.
 */
public final class UrlNormalizer {

  /**
   * @param stripParameters parameter names to remove, case-insensitive; '*' matches any run of characters
   * @param sortQuery sort query parameters by name (stable: equal names keep their order)
   * @param maxLength longest URL accepted, in characters
   */
  public record Options(List<String> stripParameters, boolean sortQuery, int maxLength) {
    public Options {
      stripParameters = List.copyOf(stripParameters);
      if (maxLength < 16) {
        throw new IllegalArgumentException("maxLength (" + maxLength + ") must be >= 16");
      }
    }

    /** The defaults of the crawler's configuration. */
    public static Options defaults() {
      return new Options(List.of("utm_*", "gclid", "fbclid", "jsessionid", "phpsessid", "sid"), false, 2048);
    }
  }

  private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");
  /** A path parameter: ";name" or ";name=value", up to the next ';', '/' or end. */
  private static final Pattern PATH_PARAMETER = Pattern.compile(";([^;/=]*)(=[^;/]*)?");

  private final BasicURLNormalizer basic;
  private final Pattern strip;
  private final boolean sortQuery;
  private final int maxLength;

  public UrlNormalizer(Options options) {
    // IDN to punycode; its own query handling is not used (the query is cut off before it).
    this.basic = BasicURLNormalizer.newBuilder().idnNormalization(BasicURLNormalizer.IdnNormalization.PUNYCODE)
        .build();
    this.strip = stripPattern(options.stripParameters());
    this.sortQuery = options.sortQuery();
    this.maxLength = options.maxLength();
  }

  public UrlNormalization normalize(String raw) {
    if (raw != null) {
      // Most links are plain URLs, normal already or one common fix away: one pass, no BasicURLNormalizer.
      String quick = NormalFormShortcut.normalFormOf(raw, maxLength, strip, sortQuery);
      if (quick != null) {
        return UrlNormalization.accepted(quick);
      }
    }
    return normalizeTheLongWay(raw);
  }

  /** The full normalization, without {@link NormalFormShortcut}; tests compare the two. */
  UrlNormalization normalizeTheLongWay(String raw) {
    try {
      return normalizeOrThrow(raw);
    } catch (RuntimeException | StackOverflowError e) {
      // Web input never throws: whatever a library trips on is a malformed URL, a stack overflow
      // too (a regex recurses once a host label, which is why long hosts are refused before it).
      return UrlNormalization.rejected(Reason.MALFORMED, clip(raw) + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private UrlNormalization normalizeOrThrow(String raw) {
    if (raw == null) {
      return UrlNormalization.rejected(Reason.MALFORMED, "no URL");
    }
    // Escaping can triple a URL's length; past four times the limit it cannot come back under it.
    if (raw.length() > 4L * maxLength) {
      return UrlNormalization.rejected(Reason.TOO_LONG, raw.length() + " characters: " + clip(raw));
    }
    String url = withoutWhitespace(raw);
    int colon = url.indexOf(':');
    if (colon <= 0 || !SCHEME.matcher(url.substring(0, colon)).matches()) {
      return UrlNormalization.rejected(Reason.MALFORMED, "no scheme: " + clip(url));
    }
    String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return UrlNormalization.rejected(Reason.UNSUPPORTED_SCHEME, scheme + ": " + clip(url));
    }
    url = withTwoSlashes(url, colon);
    if (url == null) {
      return UrlNormalization.rejected(Reason.MALFORMED, "no host: " + clip(raw));
    }
    int hash = url.indexOf('#');
    if (hash >= 0) {
      url = url.substring(0, hash);
    }
    int question = url.indexOf('?');
    String base = question < 0 ? url : url.substring(0, question);
    String query = question < 0 ? "" : url.substring(question + 1);

    String normalizedBase = normalizeBase(base);
    if (normalizedBase == null || !hasHost(normalizedBase)) {
      return UrlNormalization.rejected(Reason.MALFORMED, "unparseable: " + clip(url));
    }
    String stripped = stripPathParameters(normalizedBase);
    if (!stripped.equals(normalizedBase)) {
      // A stripped ";sid=1" can leave a dot segment or an empty one ("/..;sid=1" is "/.."), which
      // the pass above has already resolved: once more, or the normal form would not be one
      // (normalizing it again would give another URL: the crawl would log "/a/../b" but fetch "/b").
      normalizedBase = normalizeBase(stripped);
      if (normalizedBase == null || !hasHost(normalizedBase)) {
        return UrlNormalization.rejected(Reason.MALFORMED, "unparseable: " + clip(url));
      }
    }
    String normalizedQuery = normalizeQuery(query.replace(" ", "%20"));
    String result = normalizedQuery.isEmpty() ? normalizedBase : normalizedBase + '?' + normalizedQuery;
    if (result.length() > maxLength) {
      return UrlNormalization.rejected(Reason.TOO_LONG, result.length() + " characters: " + clip(result));
    }
    return UrlNormalization.accepted(result);
  }

  /** WHATWG URL parsing drops tabs and newlines anywhere, and C0 controls and spaces at the ends. */
  private static String withoutWhitespace(String raw) {
    String trimmed = withoutLoneSurrogates(raw).trim();
    if (trimmed.indexOf('\t') < 0 && trimmed.indexOf('\n') < 0 && trimmed.indexOf('\r') < 0) {
      return trimmed;
    }
    return trimmed.replaceAll("[\t\n\r]", "");
  }

  /**
   * "scheme://" and the rest, with backslashes before the query read as slashes: in an absolute
   * http(s) URL the standard skips any run of '/' and '\\' after the scheme
   * ({@code http:example.com}, {@code https:/a.test}, {@code http:\\\\a.test\\b} name a host)
   * and reads a '\\' in the path as '/'. Null if no host follows.
   */
  private static String withTwoSlashes(String url, int colon) {
    int authority = colon + 1;
    while (authority < url.length() && (url.charAt(authority) == '/' || url.charAt(authority) == '\\')) {
      authority++;
    }
    if (authority == url.length() || "?#".indexOf(url.charAt(authority)) >= 0) {
      return null;
    }
    int queryOrFragment = authority;
    while (queryOrFragment < url.length() && "?#".indexOf(url.charAt(queryOrFragment)) < 0) {
      queryOrFragment++;
    }
    String beforeQuery = url.substring(authority, queryOrFragment);
    if (authority == colon + 3 && url.charAt(colon + 1) == '/' && url.charAt(colon + 2) == '/'
        && beforeQuery.indexOf('\\') < 0) {
      return url;
    }
    return url.substring(0, colon) + "://" + beforeQuery.replace('\\', '/') + url.substring(queryOrFragment);
  }

  /**
   * An unpaired surrogate is no text: escaped as UTF-8 it became '?', which starts a query
   * ({@code /\uD800sid=1} turned into {@code /?sid=1}). Browsers read it as U+FFFD, and so does this.
   */
  private static String withoutLoneSurrogates(String raw) {
    StringBuilder out = null;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean lone = Character.isHighSurrogate(c)
          ? i + 1 >= raw.length() || !Character.isLowSurrogate(raw.charAt(i + 1))
          : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(raw.charAt(i - 1)));
      if (lone && out == null) {
        out = new StringBuilder(raw.length()).append(raw, 0, i);
      }
      if (out != null) {
        out.append(lone ? '\uFFFD' : c);
      }
    }
    return out == null ? raw : out.toString();
  }

  /**
   * Scheme, host, port and path through BasicURLNormalizer, with the user info dropped and the
   * host read first as the URL Standard reads it ({@link UrlHost}). BasicURLNormalizer escapes
   * the brackets of an IPv6 literal like any other unsafe character, so such a host is set aside
   * under a placeholder name and put back, lower-cased, afterwards.
   */
  private String normalizeBase(String base) {
    int hostStart = base.indexOf("//") + 2;
    int slash = base.indexOf('/', hostStart);
    int authorityEnd = slash < 0 ? base.length() : slash;
    int at = base.lastIndexOf('@', authorityEnd - 1);   // the last '@': user info may hold escaped ones
    if (at >= hostStart) {
      base = base.substring(0, hostStart) + base.substring(at + 1);
      authorityEnd -= at + 1 - hostStart;
      slash = slash < 0 ? -1 : authorityEnd;
    }
    if (!base.startsWith("[", hostStart)) {
      int colon = base.indexOf(':', hostStart);
      int hostEnd = colon < 0 || colon > authorityEnd ? authorityEnd : colon;
      String host = UrlHost.ascii(base.substring(hostStart, hostEnd));
      if (host == null) {
        return null;
      }
      if (host.endsWith("..")) {
        return null;   // an empty last label: no DNS name, and the HTTP client refuses it
      }
      // Spaces escaped here: BasicURLNormalizer trims them off the end of the path ("/a ?b").
      String path = slash < 0 ? "" : withoutDotSegments(base.substring(slash)).replace(" ", "%20");
      String normalized = basic.filter(base.substring(0, hostStart) + host + base.substring(hostEnd, authorityEnd) + path);
      // A host can end in a dot (UTS 46 maps "⒍" to "6."), after BasicURLNormalizer trimmed the last one.
      return normalized == null ? null : HOST_TRAILING_DOTS.matcher(normalized).replaceFirst("$1");
    }
    if (slash >= 0) {
      base = base.substring(0, slash) + withoutDotSegments(base.substring(slash));
    }
    int close = base.indexOf(']', hostStart);
    if (close < 0) {
      return null;
    }
    String literal = base.substring(hostStart, close + 1).toLowerCase(Locale.ROOT);
    if (!IPV6_LITERAL.matcher(literal).matches()) {
      return null;
    }
    String canonical = canonicalIpv6(literal.substring(1, literal.length() - 1));
    if (canonical == null) {
      return null;
    }
    String normalized = basic.filter(base.substring(0, hostStart) + IPV6_PLACEHOLDER + base.substring(close + 1));
    return normalized == null ? null : normalized.replace(IPV6_PLACEHOLDER, canonical);
  }

  /**
   * One spelling of an IPv6 address, as the crawl's HTTP client (OkHttp) and the WHATWG URL
   * standard write it: RFC 5952, zeros compressed ({@code [0:0:0:0:0:0:0:1]} is {@code [::1]}), so
   * that one server is one host to politeness and one URL to URL-seen. An IPv4-mapped address
   * ({@code [::ffff:1.2.3.4]}) is its IPv4 address, which is what the client connects to. Null if
   * it is no address.
   */
  private static String canonicalIpv6(String address) {
    if (!InetAddresses.isInetAddress(address) || address.indexOf(':') < 0) {
      return null;
    }
    InetAddress parsed = InetAddresses.forString(address);
    return parsed instanceof Inet4Address ? InetAddresses.toAddrString(parsed) : "[" + InetAddresses.toAddrString(parsed) + "]";
  }

  /**
   * The path with its dot segments resolved (RFC 3986 5.2.4), "%2e" read as the dot it is first.
   * Done here, not left to BasicURLNormalizer, which glues a segment after "/../.." to the host:
   * a link to {@code /../..m/page} on {@code https://ab.co/} would become {@code https://ab.com/page}.
   */
  static String withoutDotSegments(String path) {
    if (path.indexOf('.') < 0 && path.indexOf('%') < 0) {
      return path;
    }
    String input = ESCAPED_DOT.matcher(path).replaceAll(".");
    if (!input.contains("/.") && !input.startsWith(".")) {
      return input;
    }
    StringBuilder output = new StringBuilder(input.length());
    int i = 0;
    while (i < input.length()) {
      if (input.startsWith("../", i)) {
        i += 3;
      } else if (input.startsWith("./", i)) {
        i += 2;
      } else if (input.startsWith("/./", i)) {
        i += 2;
      } else if (i + 2 == input.length() && input.startsWith("/.", i)) {
        output.append('/');
        i += 2;
      } else if (input.startsWith("/../", i)) {
        output.setLength(Math.max(0, output.lastIndexOf("/")));
        i += 3;
      } else if (i + 3 == input.length() && input.startsWith("/..", i)) {
        output.setLength(Math.max(0, output.lastIndexOf("/")));
        output.append('/');
        i += 3;
      } else if (input.substring(i).equals(".") || input.substring(i).equals("..")) {
        i = input.length();
      } else {
        int next = input.indexOf('/', input.charAt(i) == '/' ? i + 1 : i);
        int end = next < 0 ? input.length() : next;
        output.append(input, i, end);
        i = end;
      }
    }
    return output.isEmpty() ? "/" : output.toString();
  }

  private static final Pattern ESCAPED_DOT = Pattern.compile("%2[eE]");

  private static final Pattern HOST_TRAILING_DOTS = Pattern.compile("^(https?://[^/:]*?)\\.+(?=[:/])");
  private static final String IPV6_PLACEHOLDER = "ipv6-literal.invalid";
  private static final Pattern IPV6_LITERAL = Pattern.compile("\\[[0-9a-f:.]+]");

  /**
   * True for "scheme://host[:port]/...", with a host of letters, digits, '-', '_' and
   * '.' (underscores are not DNS-legal but common, and browsers take them) or an IPv6
   * literal: what the rest of the crawl relies on.
   */
  private static boolean hasHost(String url) {
    int hostStart = url.indexOf("//") + 2;
    int hostEnd = hostStart;
    while (hostEnd < url.length() && url.charAt(hostEnd) != '/' && url.charAt(hostEnd) != ':') {
      hostEnd++;
    }
    if (hostEnd - hostStart > MAX_HOST_LENGTH && url.charAt(hostStart) != '[') {
      return false;
    }
    Matcher m = HOST_AND_PATH.matcher(url);
    // A port is 1 to 65535: "http://a.test:80800/" is no URL (WHATWG), and the crawl's URL
    // parser (OkHttp's) refuses it and port 0 further on.
    if (!m.lookingAt() || m.group(3) == null) {
      return m.lookingAt();
    }
    int port = Integer.parseInt(m.group(3), 1, m.group(3).length(), 10);
    return port >= 1 && port <= 65_535;   // port 0 is no port to connect to either
  }

  /** RFC 1035 2.3.4: a name is at most 255 octets on the wire, 253 characters written out. */
  private static final int MAX_HOST_LENGTH = 253;

  private static final Pattern HOST_AND_PATH =
      Pattern.compile("https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:.]+])(:\\d{1,5})?/");

  /** Removes ";jsessionid=..."-style parameters whose name is stripped; keeps the rest of the path as is. */
  private String stripPathParameters(String url) {
    int pathStart = url.indexOf('/', url.indexOf("://") + 3);
    if (pathStart < 0 || url.indexOf(';', pathStart) < 0) {
      return url;
    }
    String path = url.substring(pathStart);
    Matcher m = PATH_PARAMETER.matcher(path);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, strip.matcher(m.group(1)).matches() ? "" : Matcher.quoteReplacement(m.group()));
    }
    m.appendTail(out);
    return url.substring(0, pathStart) + out;
  }

  private String normalizeQuery(String query) {
    if (query.isEmpty()) {
      return "";
    }
    // Escape what must be escaped, then decode what must not be (unreserved characters), hex upper-cased.
    // And "'" as %27: the WHATWG URL standard escapes it in the query of an http(s) URL, as OkHttp and
    // browsers do, so the URL recorded is the one requested and "?q='" and "?q=%27" are one URL.
    String escaped = BasicURLNormalizer.unescapePath(BasicURLNormalizer.escapePath(query)).replace("'", "%27");
    List<String> kept = new ArrayList<>();
    for (String parameter : escaped.split("&")) {
      if (parameter.isEmpty()) {
        continue;
      }
      int equals = parameter.indexOf('=');
      String name = equals < 0 ? parameter : parameter.substring(0, equals);
      if (!strip.matcher(name).matches()) {
        kept.add(parameter);
      }
    }
    if (sortQuery) {
      kept.sort(Comparator.comparing(UrlNormalizer::parameterName));
    }
    return String.join("&", kept);
  }

  private static String parameterName(String parameter) {
    int equals = parameter.indexOf('=');
    return equals < 0 ? parameter : parameter.substring(0, equals);
  }

  private static Pattern stripPattern(List<String> names) {
    if (names.isEmpty()) {
      return Pattern.compile("(?!)");   // matches nothing
    }
    List<String> alternatives = new ArrayList<>();
    for (String name : names) {
      // "utm_*" becomes \Qutm_\E.*\Q\E: literal parts joined by "any run of characters".
      alternatives.add(java.util.Arrays.stream(name.split("\\*", -1)).map(Pattern::quote)
          .collect(java.util.stream.Collectors.joining(".*")));
    }
    return Pattern.compile(String.join("|", alternatives), Pattern.CASE_INSENSITIVE);
  }

  /** A URL cut for a log line: web input can be megabytes long. */
  static String clip(String url) {
    if (url == null) {
      return "null";
    }
    return url.length() <= 200 ? url : url.substring(0, 200) + "...(" + url.length() + " chars)";
  }
}
