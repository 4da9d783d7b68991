package dev.crawler.fetch;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A Content-Type header read the way browsers read it, not the way OkHttp's {@code MediaType}
 * does: that one refuses the whole header for one odd parameter ({@code text/html ;charset=utf-8},
 * {@code video/mp4; codecs}), and a page with no type passed the type filter (a video was read
 * to the cap) and lost its charset. Here the type is what comes before the first {@code ;}, each
 * parameter is judged alone, and of several comma-separated values the last valid one wins
 * (WHATWG MIME Sniffing, "extract a MIME type").
 *
 * @param type lower-case {@code type/subtype}
 * @param charset the charset parameter if the JDK knows it, else null
 */
record ContentTypeHeader(String type, Charset charset) {
  /** RFC 9110 token characters around one slash. */
  private static final Pattern TYPE = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** The header's type and charset, or null if no value names a type. */
  static ContentTypeHeader parse(String header) {
    if (header == null) {
      return null;
    }
    ContentTypeHeader last = null;
    for (String value : header.split(",", -1)) {
      ContentTypeHeader parsed = parseOne(value);
      if (parsed != null) {
        last = parsed;
      }
    }
    return last;
  }

  private static ContentTypeHeader parseOne(String value) {
    String[] parts = value.split(";", -1);
    String type = parts[0].trim();
    if (!TYPE.matcher(type).matches()) {
      return null;
    }
    Charset charset = null;
    for (int i = 1; i < parts.length && charset == null; i++) {
      int eq = parts[i].indexOf('=');
      if (eq > 0 && parts[i].substring(0, eq).trim().equalsIgnoreCase("charset")) {
        charset = charset(parts[i].substring(eq + 1).trim());
      }
    }
    return new ContentTypeHeader(type.toLowerCase(Locale.ROOT), charset);
  }

  private static Charset charset(String name) {
    String bare = name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")
        ? name.substring(1, name.length() - 1).trim()
        : name;
    try {
      return bare.isEmpty() ? null : Charset.forName(bare);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }
}
