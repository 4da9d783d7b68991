package dev.crawler.dedup;

/**
 * The URL Standard's IPv4 parser (section 3.5, "IPv4 parser"), the inet_aton forms browsers
 * take: one to four parts joined by dots, each decimal, octal (a leading 0) or hex (0x); the
 * last fills the bytes the others leave ({@code 192.168.257} is 192.168.1.1,
 * {@code 3232235521} is 192.168.0.1).
 */
final class Ipv4Host {
  private Ipv4Host() {}

  /** Past every IPv4 value: what {@link #number} answers for a number too big to matter. */
  private static final long TOO_BIG = 1L << 40;

  /** The address in dotted decimal, or null if {@code host} is no IPv4 address. */
  static String dotted(String host) {
    int end = host.length();
    if (end > 1 && host.charAt(end - 1) == '.') {
      end--;   // one trailing dot is allowed
    }
    long[] parts = new long[4];
    int count = 0;
    int start = 0;
    while (true) {
      int dot = host.indexOf('.', start);
      int partEnd = dot < 0 || dot > end ? end : dot;
      if (count == 4) {
        return null;
      }
      long value = number(host, start, partEnd);
      if (value < 0) {
        return null;
      }
      parts[count++] = value;
      if (partEnd == end) {
        break;
      }
      start = partEnd + 1;
    }
    long address = 0;
    for (int i = 0; i < count - 1; i++) {
      if (parts[i] > 255) {
        return null;
      }
      address |= parts[i] << (8 * (3 - i));
    }
    long last = parts[count - 1];
    if (last >= 1L << (8 * (5 - count))) {
      return null;
    }
    address |= last;
    return (address >>> 24) + "." + ((address >>> 16) & 255) + "." + ((address >>> 8) & 255) + "." + (address & 255);
  }

  /**
   * The standard's "IPv4 number parser" on {@code s[start, end)}: 0x or 0X means hex, a leading
   * 0 octal, else decimal; "0x" alone is 0. Returns -1 if it is no number; values past any IPv4
   * address are capped, since every caller refuses them.
   */
  static long number(String s, int start, int end) {
    if (start == end) {
      return -1;
    }
    int radix = 10;
    if (end - start >= 2 && s.charAt(start) == '0' && (s.charAt(start + 1) == 'x' || s.charAt(start + 1) == 'X')) {
      radix = 16;
      start += 2;
    } else if (end - start >= 2 && s.charAt(start) == '0') {
      radix = 8;
      start += 1;
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
      if (digit >= radix) {
        return -1;
      }
      value = Math.min(TOO_BIG, value * radix + digit);
    }
    return value;
  }
}
