package dev.crawler.fetch;

import java.time.Duration;
import java.time.Instant;
import okhttp3.Headers;

/**
 * The Retry-After header (RFC 9110 section 10.2.3): delay-seconds or an HTTP date. OkHttp's
 * date parser reads the three date formats HTTP has used (IMF-fixdate, RFC 850, asctime).
 */
final class RetryAfter {
  private RetryAfter() {}

  /** The wait from {@code now}, zero for a date in the past; null if absent or unreadable. */
  static Duration parse(Headers headers, Instant now) {
    String value = headers.get("Retry-After");
    // trim(), not isBlank(): a control character is not blank, trims away, and left "" to parse.
    String trimmed = value == null ? "" : value.trim();
    if (trimmed.isEmpty()) {
      return null;
    }
    if (trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
      // Eighteen digits are over thirty billion years: more is a server bug, not a wish.
      return trimmed.length() > 18 ? null : Duration.ofSeconds(Long.parseLong(trimmed));
    }
    Instant date = headers.getInstant("Retry-After");
    if (date == null) {
      return null;
    }
    Duration wait = Duration.between(now, date);
    return wait.isNegative() ? Duration.ZERO : wait;
  }
}
