package dev.crawler.parse;

/**
 * The local name of an XML document's root element, read from its first bytes without an XML
 * parser: enough to tell a sitemap from an HTML page or a feed before handing it to SAX, which
 * would log a warning for every HTML page it is given.
 */
final class XmlRoot {
  /** The root must start within this many bytes; a prolog longer than that is no sitemap we want. */
  static final int SCAN_BYTES = 4096;

  private XmlRoot() {}

  /** The root element's name without namespace prefix ("urlset" for "sm:urlset"), or null. */
  static String localName(byte[] xml) {
    int end = Math.min(xml.length, SCAN_BYTES);
    int i = 0;
    if (end >= 3 && (xml[0] & 0xFF) == 0xEF && (xml[1] & 0xFF) == 0xBB && (xml[2] & 0xFF) == 0xBF) {
      i = 3; // UTF-8 byte order mark
    }
    while (true) {
      while (i < end && isSpace(xml[i])) {
        i++;
      }
      if (i + 1 >= end || xml[i] != '<') {
        return null; // text before the root, or nothing: not XML
      }
      if (xml[i + 1] == '?') {
        i = indexOf(xml, i, end, "?>"); // XML declaration, processing instruction
      } else if (startsWith(xml, i, end, "<!--")) {
        i = indexOf(xml, i + 4, end, "-->");
      } else if (xml[i + 1] == '!') {
        i = indexOf(xml, i, end, ">"); // DOCTYPE (without an internal subset)
      } else {
        return name(xml, i + 1, end);
      }
      if (i < 0) {
        return null;
      }
    }
  }

  private static String name(byte[] xml, int start, int end) {
    int i = start;
    int local = start;
    while (i < end && !isSpace(xml[i]) && xml[i] != '>' && xml[i] != '/') {
      if (xml[i] == ':') {
        local = i + 1;
      }
      i++;
    }
    return i == end || local == i ? null : new String(xml, local, i - local, java.nio.charset.StandardCharsets.US_ASCII);
  }

  /** The index just after {@code token} at or after {@code from}, or -1. */
  private static int indexOf(byte[] xml, int from, int end, String token) {
    for (int i = from; i + token.length() <= end; i++) {
      if (startsWith(xml, i, end, token)) {
        return i + token.length();
      }
    }
    return -1;
  }

  private static boolean startsWith(byte[] xml, int at, int end, String token) {
    if (at + token.length() > end) {
      return false;
    }
    for (int k = 0; k < token.length(); k++) {
      if (xml[at + k] != token.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }
}
