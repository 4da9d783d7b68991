package dev.crawler.robots;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the value of every Crawl-delay line of a robots.txt so that crawler-commons reads what
 * it asks for. crawler-commons 1.6 reads a value without a dot with {@code Integer.parseInt} and
 * silently drops what that refuses: {@code 3000000000} and {@code 1e30} (very long delays) became
 * no delay at all, as did {@code 10s}. Here any number is read, in seconds unless a unit follows,
 * negative as 0 and too large for any clock as the longest {@link java.time.Duration} of
 * milliseconds, and written back as a decimal crawler-commons parses exactly; the politeness cap
 * applies later. A value with no number in it ({@code NaN}, {@code fast}) is left alone, so it
 * stays ignored. Which group's delay applies to us stays crawler-commons' decision: only values
 * change, line by line, and every other line is passed as it was.
 *
 * <p>Lines are found as crawler-commons finds them (the same line breaks, {@code #} comments, tag
 * stripping in a robots.txt that looks like HTML, its spellings of the directive, a colon or blanks
 * after it), plus {@code crawl_delay} and {@code crawldelay}, which mean the same to a reader.
 */
final class CrawlDelayLines {
  /** crawler-commons' spellings of the directive, and two more; matched at the start of a lower-cased line. */
  private static final String[] DIRECTIVES = {"crawl-delay", "crawl delay", "clawl-delay", "craw-delay", "crawl-deley",
      "crawl_delay", "crawldelay"};
  private static final Pattern COLON_THEN_VALUE = Pattern.compile("[ \t]*:[ \t]*(.*)");
  private static final Pattern BLANKS_THEN_VALUE = Pattern.compile("[ \t]+(.*)");
  private static final Pattern HTML_TAG = Pattern.compile("<[^>]+>");
  /** crawler-commons' signs that a robots.txt is an HTML page, and of one that still holds rules. */
  private static final Pattern HTML_ELEMENT = Pattern.compile("(?is)<(html|head|body)\\s*>");
  private static final Pattern USER_AGENT = Pattern.compile("(?i)user-agent:");
  private static final String LINE_BREAKS = "\n\r\u0085\u2028\u2029";
  /** A number (a sign, digits with a dot or an exponent, or infinity), then maybe a unit. */
  private static final Pattern NUMBER_AND_UNIT = Pattern.compile(
      "(?i)([+-]?)(?:((?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:e[+-]?\\d+)?)|(inf(?:inity)?))[ \t]*([a-z]*)");
  /** Written for any value past what a long of milliseconds holds: crawler-commons rounds it to Long.MAX_VALUE. */
  private static final String LONGEST = "1.0E300";

  private CrawlDelayLines() {}

  /**
   * The robots.txt with every Crawl-delay value rewritten as seconds in a decimal crawler-commons
   * reads, or {@code body} itself when no value changes.
   */
  static byte[] readable(byte[] body, String contentType) {
    if (body == null || body.length == 0) {
      return body;
    }
    String text = decode(body);
    boolean html = (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/html"))
        || HTML_ELEMENT.matcher(text).find();
    StringBuilder out = new StringBuilder(text.length() + 64);
    boolean changed = false;
    int start = 0;
    while (start <= text.length()) {
      int end = start;
      while (end < text.length() && LINE_BREAKS.indexOf(text.charAt(end)) < 0) {
        end++;
      }
      String line = text.substring(start, end);
      String rewritten = rewrite(line, html);
      changed |= !rewritten.equals(line);
      out.append(rewritten);
      if (end == text.length()) {
        break;
      }
      out.append(text.charAt(end));
      start = end + 1;
    }
    return changed ? out.toString().getBytes(StandardCharsets.UTF_8) : body;
  }

  /**
   * What a Crawl-delay value asks for, in seconds: at least 0, maybe infinite; empty if it holds no
   * number. The unit is seconds unless one follows the number (ms, s, min, h, d, spelt out or not);
   * a word that is no unit is ignored.
   */
  static OptionalDouble seconds(String value) {
    Matcher m = NUMBER_AND_UNIT.matcher(value.strip());
    if (!m.lookingAt()) {
      return OptionalDouble.empty();
    }
    double number = m.group(3) != null ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(2));
    if (m.group(1).equals("-") || number == 0) {
      return OptionalDouble.of(0);
    }
    return OptionalDouble.of(number * secondsPer(m.group(4).toLowerCase(Locale.ROOT)));
  }

  private static double secondsPer(String unit) {
    return switch (unit) {
      case "ms", "msec", "msecs", "millisecond", "milliseconds" -> 0.001;
      case "m", "min", "mins", "minute", "minutes" -> 60;
      case "h", "hr", "hrs", "hour", "hours" -> 3600;
      case "d", "day", "days" -> 86_400;
      default -> 1;   // s, sec, seconds, nothing, or a word that is no unit
    };
  }

  private static String rewrite(String line, boolean html) {
    String content = html ? HTML_TAG.matcher(line).replaceAll("") : line;
    int hash = content.indexOf('#');
    content = (hash >= 0 ? content.substring(0, hash) : content).trim();
    String lower = content.toLowerCase(Locale.ROOT);
    for (String directive : DIRECTIVES) {
      if (!lower.startsWith(directive)) {
        continue;
      }
      String rest = content.substring(directive.length());
      Matcher m = COLON_THEN_VALUE.matcher(rest);
      if (!m.matches()) {
        m = BLANKS_THEN_VALUE.matcher(rest);
      }
      if (!m.matches() || USER_AGENT.matcher(line).find()) {
        return line;
      }
      OptionalDouble seconds = seconds(m.group(1));
      if (seconds.isEmpty()) {
        return line;
      }
      double s = seconds.getAsDouble();
      // The line's tags and comment stay, so the file still reads as the HTML page it was.
      int comment = line.indexOf('#');
      String beforeComment = comment < 0 ? line : line.substring(0, comment);
      return "Crawl-delay: " + (s >= Long.MAX_VALUE / 1000.0 ? LONGEST : Double.toString(s))
          + (html ? String.join("", HTML_TAG.matcher(beforeComment).results().map(java.util.regex.MatchResult::group).toList()) : "")
          + (comment < 0 ? "" : line.substring(comment));
    }
    return line;
  }

  /** The text as crawler-commons decodes it: UTF-8, or UTF-16 after its byte order mark. */
  private static String decode(byte[] body) {
    int offset = 0;
    Charset charset = StandardCharsets.UTF_8;
    if (body.length >= 3 && body[0] == (byte) 0xEF && body[1] == (byte) 0xBB && body[2] == (byte) 0xBF) {
      offset = 3;
    } else if (body.length >= 2 && body[0] == (byte) 0xFF && body[1] == (byte) 0xFE) {
      offset = 2;
      charset = StandardCharsets.UTF_16LE;
    } else if (body.length >= 2 && body[0] == (byte) 0xFE && body[1] == (byte) 0xFF) {
      offset = 2;
      charset = StandardCharsets.UTF_16BE;
    }
    return new String(body, offset, body.length - offset, charset);
  }
}
