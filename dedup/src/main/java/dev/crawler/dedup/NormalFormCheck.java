package dev.crawler.dedup;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes, in one pass and without allocating, a URL that is already in the normal form
 * {@link UrlNormalizer} would give it, so the normalizer can return it as it is. Most links a
 * crawl meets, once resolved against their page, are such plain URLs; the full normalization
 * (BasicURLNormalizer, IDN, escapes) costs about 3 microseconds each, this check a few dozen
 * nanoseconds.
 *
 * <p>Conservative by design: it says yes only to a narrow shape whose normal form is itself,
 * and anything else (escapes, IP addresses, IDN, user info, path parameters, dot segments,
 * empty queries, a stripped or out-of-order parameter) goes the long way. A test checks over
 * every case table and generated URL that a yes here always equals the long way's answer.
 *
 * <p>The shape: {@code http} or {@code https}, lower case; {@code ://}; a host of lower-case
 * DNS labels (letters, digits, inner hyphens; at most 63 characters each; the last one not
 * starting with a digit; no {@code xn--}); an optional port that is not the scheme's default;
 * a path of unreserved characters and '/', with no empty, "." or ".." segment after the
 * first '/'; an optional query of name[=value] pairs of unreserved characters joined by single
 * '&'s; no fragment.
 */
final class NormalFormCheck {
  private NormalFormCheck() {}

  /** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
  private static boolean unreserved(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
        || c == '_' || c == '~';
  }

  /**
   * @param strip the parameters the normalizer removes: a URL holding one is not normal
   * @param sortQuery whether parameters must be in name order to be normal
   */
  static boolean isNormal(String url, int maxLength, Pattern strip, boolean sortQuery) {
    int n = url.length();
    if (n > maxLength) {
      return false;
    }
    int i;
    boolean https;
    if (url.startsWith("http://")) {
      i = 7;
      https = false;
    } else if (url.startsWith("https://")) {
      i = 8;
      https = true;
    } else {
      return false;
    }
    i = hostEnd(url, i);
    if (i < 0) {
      return false;
    }
    if (i < n && url.charAt(i) == ':') {
      i = portEnd(url, i + 1, https);
      if (i < 0) {
        return false;
      }
    }
    if (i >= n || url.charAt(i) != '/') {
      return false;   // empty path: the normal form adds "/"
    }
    i = pathEnd(url, i);
    if (i < 0) {
      return false;
    }
    if (i == n) {
      return true;
    }
    return url.charAt(i) == '?' && queryIsNormal(url, i + 1, strip, sortQuery);
  }

  /** The index after a host of lower-case DNS labels, or -1. */
  private static int hostEnd(String url, int start) {
    int n = url.length();
    int i = start;
    int labelStart = i;
    boolean lastLabelStartsWithDigit = false;
    while (true) {
      char c = i < n ? url.charAt(i) : '/';
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') {
        i++;
        continue;
      }
      int length = i - labelStart;
      if (length == 0 || length > 63 || url.charAt(labelStart) == '-' || url.charAt(i - 1) == '-'
          || url.startsWith("xn--", labelStart)) {
        return -1;
      }
      lastLabelStartsWithDigit = url.charAt(labelStart) >= '0' && url.charAt(labelStart) <= '9';
      if (c != '.') {
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

  /** The index after a port that is not the scheme's default, or -1. */
  private static int portEnd(String url, int start, boolean https) {
    int n = url.length();
    int i = start;
    int port = 0;
    while (i < n && i - start < 5 && url.charAt(i) >= '0' && url.charAt(i) <= '9') {
      port = port * 10 + (url.charAt(i) - '0');
      i++;
    }
    if (i == start || url.charAt(start) == '0' || port > 65535 || port == (https ? 443 : 80)) {
      return -1;
    }
    return i;
  }

  /** The index of the '?' or end after a clean path, or -1. */
  private static int pathEnd(String url, int start) {
    int n = url.length();
    int segmentStart = start + 1;
    for (int i = start + 1; ; i++) {
      char c = i < n ? url.charAt(i) : '?';
      if (c == '/' || c == '?') {
        int length = i - segmentStart;
        boolean dots = (length == 1 && url.charAt(segmentStart) == '.')
            || (length == 2 && url.charAt(segmentStart) == '.' && url.charAt(segmentStart + 1) == '.');
        boolean emptyInner = length == 0 && c == '/';
        if (dots || emptyInner) {
          return -1;
        }
        if (c == '?') {
          return i;
        }
        segmentStart = i + 1;
      } else if (!unreserved(c)) {
        return -1;
      }
    }
  }

  private static boolean queryIsNormal(String url, int start, Pattern strip, boolean sortQuery) {
    int n = url.length();
    if (start >= n) {
      return false;   // a bare '?': the normal form drops it
    }
    Matcher names = strip.matcher(url);
    int previousNameStart = -1;
    int previousNameEnd = -1;
    int paramStart = start;
    int nameEnd = -1;
    for (int i = start; ; i++) {
      char c = i < n ? url.charAt(i) : '&';
      if (c == '&') {
        if (i == paramStart) {
          return false;   // an empty parameter: the normal form drops it
        }
        int end = nameEnd >= 0 ? nameEnd : i;
        if (names.region(paramStart, end).matches()) {
          return false;
        }
        if (sortQuery && previousNameStart >= 0
            && compare(url, previousNameStart, previousNameEnd, paramStart, end) > 0) {
          return false;
        }
        previousNameStart = paramStart;
        previousNameEnd = end;
        if (i >= n) {
          return true;
        }
        paramStart = i + 1;
        nameEnd = -1;
      } else if (c == '=') {
        if (nameEnd < 0) {
          nameEnd = i;
        }
      } else if (!unreserved(c)) {
        return false;
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
