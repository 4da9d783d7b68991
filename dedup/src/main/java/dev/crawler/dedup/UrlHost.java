package dev.crawler.dedup;

import com.ibm.icu.text.IDNA;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The host of an http(s) URL as the WHATWG URL Standard's host parser reads it (section 3.5,
 * "host parsing", for a special scheme, IPv6 literals aside): percent-decoded as UTF-8, mapped
 * by UTS 46 nontransitional processing (what browsers resolve: {@code faß.example} is
 * {@code xn--fa-hia.example}, not IDNA 2003's {@code fass.example}), refused if it holds a
 * forbidden domain code point or a punycode label that does not decode to a valid one, and, if
 * its last label is a number, read as an IPv4 address in any of the forms browsers take
 * ({@code 0xffffffff}, {@code 192.0x00A80001}, {@code 3232235521}) or refused
 * ({@code 1.2.3.4.5}, {@code 256.256.256.256}, {@code foo.09}). Thread-safe.
 */
final class UrlHost {
  private UrlHost() {}

  /**
   * UTS 46 with the URL Standard's flags: CheckBidi and CheckJoiners on, UseSTD3ASCIIRules and
   * Transitional_Processing off. CheckHyphens and VerifyDnsLength are off too; ICU has no switch
   * for them and reports them as errors, which {@link #IGNORED} drops.
   */
  private static final IDNA UTS46 = IDNA.getUTS46Instance(
      IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.NONTRANSITIONAL_TO_UNICODE | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);

  private static final Set<IDNA.Error> IGNORED = EnumSet.of(IDNA.Error.LEADING_HYPHEN, IDNA.Error.TRAILING_HYPHEN,
      IDNA.Error.HYPHEN_3_4, IDNA.Error.EMPTY_LABEL, IDNA.Error.LABEL_TOO_LONG, IDNA.Error.DOMAIN_NAME_TOO_LONG);

  /** Forbidden domain code points besides C0 controls and U+007F. */
  private static final String FORBIDDEN = " #%/:<>?@[\\]^|";

  /**
   * The host in ASCII, lower case, an IPv4 address in dotted decimal; null if the standard
   * refuses it.
   *
   * @param written the host as the URL spells it, between the authority's user info and port
   */
  static String ascii(String written) {
    if (written.isEmpty()) {
      return null;
    }
    String domain = isPlainAscii(written) ? written.toLowerCase(Locale.ROOT) : mapped(percentDecoded(written));
    if (domain == null || domain.isEmpty()) {
      return null;
    }
    for (int i = 0; i < domain.length(); i++) {
      char c = domain.charAt(i);
      if (c <= 0x20 || c == 0x7f || FORBIDDEN.indexOf(c) >= 0) {
        return null;
      }
    }
    return endsInANumber(domain) ? Ipv4Host.dotted(domain) : domain;
  }

  /** ASCII with no escape and no "xn--" label: UTS 46 only lower-cases it (its ASCII fast path). */
  private static boolean isPlainAscii(String host) {
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c >= 0x80 || c == '%') {
        return false;
      }
      if ((c == 'x' || c == 'X') && (i == 0 || host.charAt(i - 1) == '.') && host.regionMatches(true, i, "xn--", 0, 4)) {
        return false;
      }
    }
    return true;
  }

  /** UTS 46 ToASCII, or null on an error the standard does not ignore (a bad punycode label, a disallowed code point). */
  private static String mapped(String domain) {
    StringBuilder out = new StringBuilder(domain.length() + 8);
    IDNA.Info info = new IDNA.Info();
    UTS46.nameToASCII(domain, out, info);
    for (IDNA.Error error : info.getErrors()) {
      if (!IGNORED.contains(error)) {
        return null;
      }
    }
    return out.toString();
  }

  /**
   * The standard's "ends in a number": the last label, after one trailing empty one, is all
   * digits or reads as an IPv4 number ("0x", "0x1F"). Such a host is an IPv4 address or nothing.
   */
  static boolean endsInANumber(String domain) {
    int end = domain.length();
    if (domain.charAt(end - 1) == '.') {
      if (end == 1) {
        return false;
      }
      end--;
    }
    int start = domain.lastIndexOf('.', end - 1) + 1;
    if (start == end) {
      return false;
    }
    boolean digits = true;
    for (int i = start; i < end && digits; i++) {
      digits = domain.charAt(i) >= '0' && domain.charAt(i) <= '9';
    }
    return digits || Ipv4Host.number(domain, start, end) >= 0;
  }

  /** %XX escapes as UTF-8 bytes, the rest as it is; bytes that are no UTF-8 become U+FFFD. */
  static String percentDecoded(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    int run = 0;   // start of the characters since the last escape, written as UTF-8 together
    for (int i = 0; i < text.length(); i++) {
      int hi = text.charAt(i) == '%' && i + 2 < text.length() ? hex(text.charAt(i + 1)) : -1;
      int lo = hi >= 0 ? hex(text.charAt(i + 2)) : -1;
      if (lo >= 0) {
        bytes.writeBytes(text.substring(run, i).getBytes(StandardCharsets.UTF_8));
        bytes.write(hi * 16 + lo);
        i += 2;
        run = i + 1;
      }
    }
    bytes.writeBytes(text.substring(run).getBytes(StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** An ASCII hex digit's value, or -1 (Character.digit would take fullwidth digits too). */
  private static int hex(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }
}
