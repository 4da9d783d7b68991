package dev.crawler.record;

import static com.google.common.base.Preconditions.checkArgument;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * One line of the crawl log: what happened to one URL the crawl took from the frontier.
 *
 * <p>The file starts with a {@link #HEADER} comment. The line, columns separated by spaces, in this order:
 * <pre>
 * 2025-05-01T12:00:00.123Z FETCHED            200      18213     95 https://a.test/b https://a.test/ text/html 2 -
 * time (UTC, ms)           outcome         status      bytes     ms url              via             type      depth detail
 * </pre>
 * Every column is present; {@code -} stands for none (no status, no via for a seed, no content
 * type, no detail). Outcome, status, bytes and duration are padded so the columns line up;
 * readers split on runs of spaces. The detail (a failure's cause) comes last because it is free
 * text with spaces; backslash escapes keep it on one line ({@code \n}, {@code \r}, {@code \t},
 * {@code \\}), and a detail that is exactly {@code -} is written {@code \-}.
 *
 * <p>URLs, via and content type never contain spaces in the log: whitespace and control
 * characters in them are percent-encoded (UTF-8), which names the same resource (a browser or
 * OkHttp would send the same bytes). So {@link #parse} inverts {@link #format} exactly for every
 * entry whose URLs hold no whitespace, and up to that encoding otherwise.
 *
 * <p>The log keeps milliseconds: the constructor truncates {@code time} and {@code duration} to
 * them, blank strings become null, and the detail is stripped of surrounding whitespace.
 *
 * @param time when the fetch started (or the URL was decided on, without a fetch)
 * @param outcome what the crawl did with the URL
 * @param httpStatus the response's status code, 0 without a response
 * @param bytes body bytes kept (0 without a body)
 * @param duration the fetch's duration, {@link Duration#ZERO} without a fetch
 * @param url the URL
 * @param via the page the URL was found on; null for seeds
 * @param contentType the response's media type; null if none
 * @param depth links followed from a seed (0 for seeds)
 * @param detail the cause of a failure or other note; null if none
 */
public record CrawlLogEntry(Instant time, CrawlOutcome outcome, int httpStatus, long bytes, Duration duration,
    String url, String via, String contentType, int depth, String detail) {

  /**
   * The first line of every crawl log, its column legend; a line that starts with {@code #} is a
   * comment, skipped by readers (and by {@code awk '$2 == "FETCHED"'}, whose $2 it is not).
   */
  public static final String HEADER = "# time(UTC) outcome status bytes ms url via content-type depth detail"
      + "  (- = none: no status, a seed's via, no type or detail; detail is the failure's cause or a note)";

  /** Whether the line is a comment (the header), not an entry. */
  public static boolean isComment(String line) {
    return line.startsWith("#");
  }

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final String NONE = "-";
  /** The ten columns; the last (detail) takes the rest of the line. */
  private static final int COLUMNS = 10;

  public CrawlLogEntry {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(url, "url");
    checkArgument(!url.isBlank(), "url must not be blank");
    checkArgument(httpStatus >= 0, "httpStatus (%s) must be >= 0", httpStatus);
    checkArgument(bytes >= 0, "bytes (%s) must be >= 0", bytes);
    checkArgument(depth >= 0, "depth (%s) must be >= 0", depth);
    time = time.truncatedTo(ChronoUnit.MILLIS);
    duration = duration.truncatedTo(ChronoUnit.MILLIS);
    via = blankToNull(via);
    contentType = blankToNull(contentType);
    detail = detail == null ? null : blankToNull(detail.strip());
  }

  /** The entry as one line, without a line break. */
  public String format() {
    StringBuilder line = new StringBuilder(200);
    line.append(TIME.format(time)).append(' ');
    line.append(String.format(Locale.ROOT, "%-18s %3s %10d %6d ", outcome.name(), httpStatus == 0 ? NONE : httpStatus, bytes,
        duration.toMillis()));
    line.append(token(url)).append(' ');
    line.append(token(via)).append(' ');
    line.append(token(contentType)).append(' ');
    line.append(depth).append(' ');
    line.append(detail == null ? NONE : escapeDetail(detail));
    return line.toString();
  }

  /**
   * Reads a line written by {@link #format}.
   *
   * @throws IllegalArgumentException naming the column when the line is not a crawl-log line
   *     (a line cut by a crash is one)
   */
  public static CrawlLogEntry parse(String line) {
    String[] column = line.strip().split(" +", COLUMNS);
    checkArgument(column.length == COLUMNS, "Crawl log line has %s columns, not %s: %s", column.length, COLUMNS, line);
    try {
      return new CrawlLogEntry(
          Instant.from(TIME.parse(column[0])),
          CrawlOutcome.valueOf(column[1]),
          column[2].equals(NONE) ? 0 : Integer.parseInt(column[2]),
          Long.parseLong(column[3]),
          Duration.ofMillis(Long.parseLong(column[4])),
          column[5],
          noneToNull(column[6]),
          noneToNull(column[7]),
          Integer.parseInt(column[8]),
          column[9].equals(NONE) ? null : unescapeDetail(column[9]));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      throw new IllegalArgumentException("Not a crawl log line (" + e.getMessage() + "): " + line, e);
    }
  }

  /** A column without spaces: whitespace and control characters percent-encoded. */
  private static String token(String value) {
    if (value == null) {
      return NONE;
    }
    StringBuilder out = null;
    for (int i = 0; i < value.length(); ) {
      int c = value.codePointAt(i);
      int next = i + Character.charCount(c);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
        if (out == null) {
          out = new StringBuilder(value.length() + 16).append(value, 0, i);
        }
        for (byte b : value.substring(i, next).getBytes(StandardCharsets.UTF_8)) {
          out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
              .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
        }
      } else if (out != null) {
        out.appendCodePoint(c);
      }
      i = next;
    }
    return out == null ? value : out.toString();
  }

  private static String escapeDetail(String detail) {
    if (detail.equals(NONE)) {
      return "\\-";
    }
    StringBuilder out = new StringBuilder(detail.length() + 8);
    int last = detail.length() - 1;
    for (int i = 0; i <= last; i++) {
      char c = detail.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          // Other controls, and whitespace the column split or strip() would eat at either end,
          // as \\uXXXX, so a detail reads back exactly (not a NUL as a space, nor without a space at its end).
          boolean edge = (i == 0 || i == last) && (Character.isWhitespace(c) || Character.isSpaceChar(c));
          if (Character.isISOControl(c) || edge) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  private static String unescapeDetail(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\' || i + 1 == text.length()) {
        out.append(c);
        continue;
      }
      char escaped = text.charAt(++i);
      if (escaped == 'u' && i + 4 < text.length() && isHex(text, i + 1, i + 5)) {
        out.append((char) Integer.parseInt(text, i + 1, i + 5, 16));
        i += 4;
        continue;
      }
      out.append(switch (escaped) {
        case 'n' -> '\n';
        case 'r' -> '\r';
        case 't' -> '\t';
        default -> escaped;
      });
    }
    return out.toString();
  }

  private static boolean isHex(String text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (Character.digit(text.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  private static String noneToNull(String column) {
    return column.equals(NONE) ? null : column;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
