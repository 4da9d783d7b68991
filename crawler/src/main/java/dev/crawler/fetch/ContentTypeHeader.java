package dev.crawler.fetch;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A Content-Type header read the way browsers read it, not the way OkHttp's {@code MediaType}
 * does: that one refuses the whole header for one odd parameter ({@code text/html ;charset=utf-8},
 * {@code video/mp4; codecs}), and a page left with no type would pass the type filter (a video
 * read to the cap) and lose its charset. Here the type is what comes before the first {@code ;}, each
 * parameter is judged alone, and of several comma-separated values the last valid one that is
 * not {@code *}{@code /*} wins (WHATWG Fetch, "extract a MIME type"); commas and semicolons inside
 * double quotes are not separators.
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
    for (String value : split(header, ',')) {
      ContentTypeHeader parsed = parseOne(value);
      // WHATWG: a value that is not a type, or is */*, is skipped ("text/html, */*" is HTML).
      if (parsed != null && !parsed.type.equals("*/*")) {
        last = parsed;
      }
    }
    return last;
  }

  private static ContentTypeHeader parseOne(String value) {
    List<String> parts = split(value, ';');
    String type = parts.get(0).trim();
    if (!TYPE.matcher(type).matches()) {
      return null;
    }
    Charset charset = null;
    for (int i = 1; i < parts.size() && charset == null; i++) {
      String part = parts.get(i);
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).trim().equalsIgnoreCase("charset")) {
        charset = charset(part.substring(eq + 1).trim());
      }
    }
    return new ContentTypeHeader(type.toLowerCase(Locale.ROOT), charset);
  }

  /** Splits at {@code separator}, except inside a double-quoted string (where a backslash escapes). */
  private static List<String> split(String text, char separator) {
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted && c == '\\' && i + 1 < text.length()) {
        part.append(c).append(text.charAt(++i));
        continue;
      }
      if (c == '"') {
        quoted = !quoted;
      } else if (c == separator && !quoted) {
        parts.add(part.toString());
        part.setLength(0);
        continue;
      }
      part.append(c);
    }
    parts.add(part.toString());
    return parts;
  }

  /** The charset a parameter value names; quotes, double or single (as OkHttp and browsers allow), stripped. */
  private static Charset charset(String name) {
    String bare = name;
    if (bare.length() >= 2 && (bare.charAt(0) == '"' || bare.charAt(0) == '\'')
        && bare.charAt(bare.length() - 1) == bare.charAt(0)) {
      bare = bare.substring(1, bare.length() - 1).trim();
    }
    try {
      return bare.isEmpty() ? null : Charset.forName(bare);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }
}
