package dev.crawler.parse;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.jsoup.parser.StreamParser;
import org.jsoup.select.Evaluator;

/**
 * Which charset decodes a page, in the order browsers use (WHATWG HTML "determining the
 * character encoding"): a byte order mark, then the Content-Type header, then a
 * {@code <meta charset>} or {@code <meta http-equiv=Content-Type>} (or an XML declaration) in
 * the first bytes, else UTF-8.
 */
final class PageCharset {
  /** How far into the body a meta charset is looked for; jsoup's DataUtil reads the same 5 KiB. */
  static final int PRESCAN_BYTES = 5 * 1024;

  private static final Pattern CONTENT_TYPE_CHARSET =
      Pattern.compile("(?i)\\bcharset\\s*=\\s*[\"']?([^\\s,;\"']+)");
  private static final Pattern XML_DECLARATION_ENCODING =
      Pattern.compile("^<\\?xml[^>]*?\\bencoding\\s*=\\s*[\"']([^\"']+)[\"']");

  /**
   * {@code meta[charset], meta[http-equiv=content-type]}, built once: a query string would be
   * parsed again on every page. Stateless, so all workers share it.
   */
  private static final Evaluator CHARSET_META = new Evaluator() {
    @Override
    public boolean matches(Element root, Element element) {
      return "meta".equals(element.normalName())
          && (element.hasAttr("charset") || element.attr("http-equiv").equalsIgnoreCase("content-type"));
    }
  };

  /** The decision: the charset and where the text starts (after a byte order mark). */
  record Decision(Charset charset, int textStart) {}

  private PageCharset() {}

  static Decision decide(byte[] body, Charset header) {
    Decision bom = byteOrderMark(body);
    if (bom != null) {
      return bom; // a BOM is certain; it beats the header, as in browsers and jsoup
    }
    if (header != null && isWebEncoding(header)) {
      return new Decision(asBrowsersRead(header), 0);
    }
    Charset declared = declaredInPage(body);
    return new Decision(declared == null ? StandardCharsets.UTF_8 : declared, 0);
  }

  private static Decision byteOrderMark(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return new Decision(StandardCharsets.UTF_8, 3);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
      return new Decision(StandardCharsets.UTF_16BE, 2);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
      return new Decision(StandardCharsets.UTF_16LE, 2);
    }
    return null;
  }

  /**
   * The charset a meta tag or XML declaration names in the first {@link #PRESCAN_BYTES}, or
   * null. The bytes are read as ISO-8859-1, which maps every byte to one char, so the ASCII
   * markup reads the same whatever the real charset is. A streaming parse stops at the first
   * match; comments and scripts are skipped as the parser skips them.
   */
  private static Charset declaredInPage(byte[] body) {
    int prescan = Math.min(body.length, PRESCAN_BYTES);
    String head = new String(body, 0, prescan, StandardCharsets.ISO_8859_1);
    Matcher xml = XML_DECLARATION_ENCODING.matcher(head);
    // Both meta forms name a charset with the letters "charset": without them, no parse is needed.
    String name = containsCharsetWord(body, prescan) ? metaCharset(head) : null;
    if (name == null && xml.find()) {
      name = xml.group(1);
    }
    Charset charset = supported(name);
    if (charset == null) {
      return null;
    }
    // WHATWG HTML "prescan": a meta naming UTF-16 was just read as ASCII, so the page is not UTF-16.
    return charset.name().startsWith("UTF-16") ? StandardCharsets.UTF_8 : asBrowsersRead(charset);
  }

  private static String metaCharset(String head) {
    try (StreamParser streamer = new StreamParser(Parser.htmlParser()).parse(new StringReader(head), "")) {
      Element meta = streamer.selectFirst(CHARSET_META);
      if (meta == null) {
        return null;
      }
      return meta.hasAttr("charset") ? meta.attr("charset") : contentTypeCharset(meta.attr("content"));
    } catch (IOException | RuntimeException e) {
      return null; // a prefix that does not parse names no charset
    }
  }


  /** Whether {@code body[0, end)} holds "charset" in any ASCII case. */
  static boolean containsCharsetWord(byte[] body, int end) {
    byte[] word = {'c', 'h', 'a', 'r', 's', 'e', 't'};
    for (int i = 0; i + word.length <= end; i++) {
      if ((body[i] | 0x20) != 'c') {
        continue;
      }
      int j = 1;
      while (j < word.length && (body[i + j] | 0x20) == word[j]) {
        j++;
      }
      if (j == word.length) {
        return true;
      }
    }
    return false;
  }

  private static String contentTypeCharset(String contentType) {
    Matcher m = CONTENT_TYPE_CHARSET.matcher(contentType);
    return m.find() ? m.group(1) : null;
  }

  private static Charset supported(String name) {
    if (name == null) {
      return null;
    }
    String trimmed = name.trim().toLowerCase(Locale.ROOT);
    try {
      Charset charset = trimmed.isEmpty() || !Charset.isSupported(trimmed) ? null : Charset.forName(trimmed);
      return charset != null && isWebEncoding(charset) ? charset : null;
    } catch (IllegalCharsetNameException e) {
      return null;
    }
  }

  /**
   * The encodings of the WHATWG Encoding Standard, by the JDK's names for them. Browsers ignore
   * any other label, and so does this: the JDK knows EBCDIC, UTF-32 and dozens more, and a page
   * whose meta names {@code IBM037} would be decoded as EBCDIC and lose every link.
   */
  private static final Set<String> WEB_ENCODINGS = Set.of("UTF-8", "UTF-16BE", "UTF-16LE", "UTF-16", "IBM866",
      "ISO-8859-1", "US-ASCII", "GB2312", "ISO-8859-9", "TIS-620", "x-iso-8859-11", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7",
      "ISO-8859-8", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U",
      "x-MacRoman", "x-MacCyrillic", "x-windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253",
      "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258", "GBK", "GB18030", "Big5",
      "Big5-HKSCS", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "windows-31j", "EUC-KR", "x-windows-949");

  private static boolean isWebEncoding(Charset charset) {
    return WEB_ENCODINGS.contains(charset.name());
  }

  /**
   * WHATWG Encoding: the labels "iso-8859-1", "latin1" and "us-ascii" mean windows-1252, which
   * also maps 0x80-0x9F (curly quotes, the euro sign); pages depend on it.
   */
  private static Charset asBrowsersRead(Charset charset) {
    return BROWSERS_READ.getOrDefault(charset.name(), charset);
  }

  /**
   * WHATWG Encoding: labels whose encoding is a superset the JDK names otherwise. latin1 and
   * ascii are windows-1252, gb2312 is GBK, iso-8859-9 is windows-1254, tis-620 and iso-8859-11
   * are windows-874, euc-kr is windows-949, shift_jis is windows-31j; UTF-16 without a BOM is
   * little-endian. (Leaving out gb2312, iso-8859-9 or tis-620 turned common pages to U+FFFD.)
   */
  private static final Map<String, Charset> BROWSERS_READ = browsersRead(Map.of(
      "ISO-8859-1", "windows-1252", "US-ASCII", "windows-1252", "GB2312", "GBK", "ISO-8859-9", "windows-1254",
      "TIS-620", "x-windows-874", "x-iso-8859-11", "x-windows-874", "EUC-KR", "x-windows-949",
      "Shift_JIS", "windows-31j", "UTF-16", "UTF-16LE"));

  private static Map<String, Charset> browsersRead(Map<String, String> names) {
    Map<String, Charset> charsets = new HashMap<>();
    names.forEach((from, to) -> {
      if (Charset.isSupported(to)) {
        charsets.put(from, Charset.forName(to));
      }
    });
    return Map.copyOf(charsets);
  }
}
