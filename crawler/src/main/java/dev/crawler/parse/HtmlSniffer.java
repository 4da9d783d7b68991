package dev.crawler.parse;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Whether a body sent without a Content-Type is HTML, by the patterns of the WHATWG MIME
 * Sniffing standard (section 7.1, "identifying a resource with an unknown MIME type"): after
 * leading whitespace, one of {@code <!DOCTYPE HTML}, {@code <HTML}, {@code <HEAD}, ... in any
 * case, followed by a space or {@code >}. Old servers send pages with no type; a browser shows
 * them as HTML, so their links count.
 */
public final class HtmlSniffer {
  private static final List<byte[]> PATTERNS = List.of("<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME",
      "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--")
      .stream().map(p -> p.getBytes(StandardCharsets.US_ASCII)).toList();
  private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private HtmlSniffer() {}

  public static boolean looksLikeHtml(byte[] body) {
    int i = startsWith(body, 0, UTF8_BOM, false) ? UTF8_BOM.length : 0;
    while (i < body.length && isWhitespace(body[i])) {
      i++;
    }
    for (byte[] pattern : PATTERNS) {
      int end = i + pattern.length;
      if (startsWith(body, i, pattern, true) && end < body.length && (body[end] == ' ' || body[end] == '>')) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] body, int from, byte[] pattern, boolean ignoreCase) {
    if (body.length - from < pattern.length) {
      return false;
    }
    for (int k = 0; k < pattern.length; k++) {
      byte b = body[from + k];
      if (ignoreCase && b >= 'a' && b <= 'z') {
        b -= 'a' - 'A';
      }
      if (b != pattern[k]) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWhitespace(byte b) {
    return b == '\t' || b == '\n' || b == 0x0C || b == '\r' || b == ' ';
  }
}
