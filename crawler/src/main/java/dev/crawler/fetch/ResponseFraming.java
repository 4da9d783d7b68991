package dev.crawler.fetch;

import java.util.List;
import java.util.Locale;
import okhttp3.Headers;

/**
 * Whether a response's headers say unambiguously where its body ends (RFC 9112 section 6.3). OkHttp
 * frames a body by the last Content-Length header and by a Transfer-Encoding that is exactly
 * {@code chunked}; when the headers allow another reading, the end OkHttp finds may not be the
 * server's, and the bytes between are read as the next response.
 */
enum ResponseFraming {
  /** One Content-Length, a plain chunked coding, or neither (read to the close). */
  CLEAR,
  /**
   * Transfer-Encoding beside a Content-Length (which it overrides, and a sign of smuggling), or a
   * transfer coding other than chunked alone: the body is kept as read, but the connection is closed.
   */
  DOUBTFUL,
  /**
   * Content-Length values that disagree, or one that is no length: "an unrecoverable error" (6.3
   * item 5); the response is discarded and the connection closed.
   */
  BROKEN;

  static ResponseFraming of(Headers headers) {
    long length = -1;
    for (String value : headers.values("Content-Length")) {
      // "42, 42" may stand for one 42 (6.3 item 5); any other list is a contradiction.
      for (String item : value.split(",", -1)) {
        long parsed = digits(item.strip());
        if (parsed < 0 || (length >= 0 && parsed != length)) {
          return BROKEN;
        }
        length = parsed;
      }
    }
    List<String> codings = headers.values("Transfer-Encoding");
    if (codings.isEmpty()) {
      return CLEAR;
    }
    boolean chunkedAlone = codings.size() == 1 && codings.get(0).strip().toLowerCase(Locale.ROOT).equals("chunked");
    return chunkedAlone && length < 0 ? CLEAR : DOUBTFUL;
  }

  /** The value of 1*DIGIT, or -1 for anything else (signs, spaces inside, empty, too long). */
  private static long digits(String text) {
    if (text.isEmpty() || text.length() > 18) {
      return -1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(text);
  }
}
