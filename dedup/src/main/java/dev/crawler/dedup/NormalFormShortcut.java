package dev.crawler.dedup;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The normal form of a plain URL in one pass, without crawler-commons' BasicURLNormalizer:
 * most links a crawl meets, once resolved against their page, are plain URLs that are either
 * already in normal form or one common fix away from it. The full normalization
 * (BasicURLNormalizer, IDN, escapes) costs about 3 microseconds a URL; this a few dozen
 * nanoseconds, and it returns its input itself, without allocating, when that is already normal.
 *
 * <p>The fixes it makes: scheme and host to lower case, the scheme's default port dropped, an
 * empty path made "/", the fragment cut, empty query parameters and the normalizer's stripped
 * parameters removed, a query left empty dropped with its '?'.
 *
 * <p>Conservative by design: anything outside the shape below (escapes, IP addresses, IDN,
 * user info, path parameters, dot segments, a trailing dot on the host, whitespace, parameters
 * out of order when the query is sorted) gets {@code null}, and goes the long way. A test checks
 * over every case table and generated URL that an answer here always equals the long way's.
 *
 * <p>The shape: {@code http} or {@code https} in any case; {@code ://}; a host of DNS labels
 * (ASCII letters in any case, digits, inner hyphens; at most 63 characters each; the last one
 * not starting with a digit; no {@code xn--}); an optional port of 1 to 5 digits, no leading
 * zero, at most 65535; a path, possibly empty, of unreserved characters and '/', with no empty,
 * "." or ".." segment after the first '/'; an optional query of name[=value] pairs of unreserved
 * characters and '=' joined by '&'s; an optional fragment of anything.
 */
final class NormalFormShortcut {
  private NormalFormShortcut() {}

  /** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
  private static boolean unreserved(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
        || c == '_' || c == '~';
  }

  /**
   * The normal form of {@code url}, {@code url} itself if it is already normal, or null if it
   * is not of the plain shape this class handles (then the long way decides, rejections included).
   *
   * @param strip the parameters the normalizer removes
   * @param sortQuery whether the normal form has its parameters in name order
   */
  static String normalFormOf(String url, int maxLength, Pattern strip, boolean sortQuery) {
    int n = url.length();
    if (n > 4L * maxLength) {
      return null;   // the long way rejects it before looking further
    }
    // Scheme: ASCII only (String.regionMatches(ignoreCase) would take "httpſ", whose 'ſ' upper-cases to 'S').
    int i = 0;
    while (i < n && i < 6 && isAsciiLetter(url.charAt(i))) {
      i++;
    }
    boolean https;
    if (i == 4 && url.regionMatches(true, 0, "http", 0, 4)) {
      https = false;
    } else if (i == 5 && url.regionMatches(true, 0, "https", 0, 5)) {
      https = true;
    } else {
      return null;
    }
    if (!url.startsWith("://", i)) {
      return null;
    }
    boolean changed = !url.startsWith(https ? "https" : "http");
    int hostStart = i + 3;
    int hostEnd = hostEnd(url, hostStart);
    if (hostEnd < 0) {
      return null;
    }
    boolean upperHost = false;
    for (int h = hostStart; h < hostEnd; h++) {
      char c = url.charAt(h);
      if (c >= 'A' && c <= 'Z') {
        upperHost = true;
        break;
      }
    }
    changed |= upperHost;
    i = hostEnd;
    int portStart = i;   // the ':' of a port kept, or where the path starts
    int portEnd = i;
    if (i < n && url.charAt(i) == ':') {
      int end = portEnd(url, i + 1);
      if (end < 0) {
        return null;
      }
      int port = Integer.parseInt(url, i + 1, end, 10);
      if (port == (https ? 443 : 80)) {
        changed = true;   // the default port goes
      } else {
        portEnd = end;
      }
      i = end;
    }
    int pathStart = i;
    int pathEnd = pathEnd(url, i);
    if (pathEnd < 0) {
      return null;
    }
    changed |= pathEnd == pathStart;   // an empty path becomes "/"
    i = pathEnd;
    int queryStart = -1;
    int queryEnd = -1;
    if (i < n && url.charAt(i) == '?') {
      queryStart = i + 1;
      queryEnd = url.indexOf('#', queryStart);
      if (queryEnd < 0) {
        queryEnd = n;
      }
      int query = scanQuery(url, queryStart, queryEnd, strip, sortQuery, null);
      if (query == QUERY_NOT_PLAIN) {
        return null;
      }
      changed |= query == QUERY_CHANGED;
      i = queryEnd;
    }
    if (i < n) {
      if (url.charAt(i) != '#') {
        return null;
      }
      changed = true;   // the fragment goes
    }
    if (!changed) {
      return n > maxLength ? null : url;
    }

    StringBuilder out = new StringBuilder(n);
    out.append(https ? "https://" : "http://");
    for (int h = hostStart; h < hostEnd; h++) {
      char c = url.charAt(h);
      out.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
    }
    out.append(url, portStart, portEnd);
    if (pathEnd == pathStart) {
      out.append('/');
    } else {
      out.append(url, pathStart, pathEnd);
    }
    if (queryStart >= 0) {
      int questionMark = out.length();
      out.append('?');
      scanQuery(url, queryStart, queryEnd, strip, sortQuery, out);
      if (out.length() == questionMark + 1) {
        out.setLength(questionMark);   // nothing kept: no '?'
      }
    }
    return out.length() > maxLength ? null : out.toString();
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** The index after a host of DNS labels (ASCII, any case), followed by ':', '/', '?', '#' or the end; or -1. */
  private static int hostEnd(String url, int start) {
    int n = url.length();
    int i = start;
    int labelStart = i;
    boolean lastLabelStartsWithDigit;
    while (true) {
      char c = i < n ? url.charAt(i) : '/';
      if (isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '-') {
        i++;
        continue;
      }
      int length = i - labelStart;
      if (length == 0 || length > 63 || url.charAt(labelStart) == '-' || url.charAt(i - 1) == '-'
          || url.regionMatches(true, labelStart, "xn--", 0, 4)) {
        return -1;   // also an empty label: "a..b", a trailing dot, no host at all
      }
      lastLabelStartsWithDigit = url.charAt(labelStart) >= '0' && url.charAt(labelStart) <= '9';
      if (c != '.') {
        if (c != ':' && c != '/' && c != '?' && c != '#') {
          return -1;   // user info, '_', '%', '\', whitespace, a non-ASCII character...
        }
        break;
      }
      i++;
      labelStart = i;
    }
    if (lastLabelStartsWithDigit || i - start > 253) {
      return -1;   // an IP address or something like one: the long way decides
    }
    return i;
  }

  /** The index after a port of 1 to 5 digits, no leading zero, at most 65535; or -1. */
  private static int portEnd(String url, int start) {
    int n = url.length();
    int i = start;
    int port = 0;
    while (i < n && i - start < 5 && url.charAt(i) >= '0' && url.charAt(i) <= '9') {
      port = port * 10 + (url.charAt(i) - '0');
      i++;
    }
    if (i == start || url.charAt(start) == '0' || port > 65535) {
      return -1;
    }
    return i;
  }

  /**
   * The index of the '?', '#' or end after a clean path, or -1. The path is empty or starts
   * at {@code start} with '/'.
   */
  private static int pathEnd(String url, int start) {
    int n = url.length();
    if (start == n || url.charAt(start) == '?' || url.charAt(start) == '#') {
      return start;   // empty
    }
    if (url.charAt(start) != '/') {
      return -1;
    }
    int segmentStart = start + 1;
    for (int i = start + 1; ; i++) {
      char c = i < n ? url.charAt(i) : '?';
      if (c == '/' || c == '?' || c == '#') {
        int length = i - segmentStart;
        boolean dots = (length == 1 && url.charAt(segmentStart) == '.')
            || (length == 2 && url.charAt(segmentStart) == '.' && url.charAt(segmentStart + 1) == '.');
        boolean emptyInner = length == 0 && c == '/';
        if (dots || emptyInner) {
          return -1;
        }
        if (c != '/') {
          return i;
        }
        segmentStart = i + 1;
      } else if (!unreserved(c)) {
        return -1;
      }
    }
  }

  private static final int QUERY_NORMAL = 0;
  private static final int QUERY_CHANGED = 1;
  private static final int QUERY_NOT_PLAIN = -1;

  /**
   * Checks the query between {@code start} and {@code end} (after the '?', before any '#'):
   * {@link #QUERY_NORMAL} if it is normal as it is, {@link #QUERY_CHANGED} if empty or stripped
   * parameters go, {@link #QUERY_NOT_PLAIN} if the long way must decide. With {@code out}, appends
   * the parameters kept, joined by '&'.
   */
  private static int scanQuery(String url, int start, int end, Pattern strip, boolean sortQuery, StringBuilder out) {
    Matcher names = strip.matcher(url);
    boolean changed = start == end;   // a bare '?' goes
    int previousNameStart = -1;
    int previousNameEnd = -1;
    int paramStart = start;
    int nameEnd = -1;
    for (int i = start; ; i++) {
      char c = i < end ? url.charAt(i) : '&';
      if (c == '&') {
        if (i == paramStart) {
          changed = true;   // an empty parameter goes
        } else {
          int nameStop = nameEnd >= 0 ? nameEnd : i;
          if (names.region(paramStart, nameStop).matches()) {
            changed = true;   // a stripped parameter goes
          } else {
            if (sortQuery && previousNameStart >= 0
                && compare(url, previousNameStart, previousNameEnd, paramStart, nameStop) > 0) {
              return QUERY_NOT_PLAIN;   // out of order: the long way sorts
            }
            previousNameStart = paramStart;
            previousNameEnd = nameStop;
            if (out != null) {
              if (out.charAt(out.length() - 1) != '?') {
                out.append('&');
              }
              out.append(url, paramStart, i);
            }
          }
        }
        if (i >= end) {
          return changed ? QUERY_CHANGED : QUERY_NORMAL;
        }
        paramStart = i + 1;
        nameEnd = -1;
      } else if (c == '=') {
        if (nameEnd < 0) {
          nameEnd = i;
        }
      } else if (!unreserved(c)) {
        return QUERY_NOT_PLAIN;
      }
    }
  }

  /** String.compareTo of two regions of one string. */
  private static int compare(String s, int aStart, int aEnd, int bStart, int bEnd) {
    int la = aEnd - aStart;
    int lb = bEnd - bStart;
    for (int k = 0; k < Math.min(la, lb); k++) {
      int d = s.charAt(aStart + k) - s.charAt(bStart + k);
      if (d != 0) {
        return d;
      }
    }
    return la - lb;
  }
}
