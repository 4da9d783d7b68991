package dev.crawler.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Locale;

/**
 * Numbers as a person reads them at a glance. Always {@link Locale#US}: the stats line is the
 * same on every machine, and scripts that grep it see one format.
 */
final class Figures {
  private static final String[] COUNT_UNITS = {"", "k", "M", "B", "T"};
  /** Powers of 1024, as the config reads sizes (512KB, 10MB). */
  private static final String[] BYTE_UNITS = {" B", " KB", " MB", " GB", " TB", " PB"};
  /** Below this a percentage is shown as {@code <0.0001%}: more zeros say nothing a reader can use. */
  private static final double SMALLEST_PERCENT = 0.0001;

  private Figures() {}

  /** 12,418 */
  static String grouped(long n) {
    return String.format(Locale.US, "%,d", n);
  }

  /** 950, 9.9k, 310k, 2.1M, 1.0B: three significant figures at most, decimal (SI) steps. */
  static String compact(long n) {
    return scaled(n, COUNT_UNITS, 1000);
  }

  /** 950 B, 1.5 MB, 2.1 GB: K, M, G are powers of 1024, as in the config's sizes. */
  static String bytes(long n) {
    return scaled(n, BYTE_UNITS, 1024);
  }

  /** "1 host", "2 hosts". */
  static String count(long n, String one, String many) {
    return grouped(n) + " " + (n == 1 ? one : many);
  }

  private static String scaled(long n, String[] units, int step) {
    if (n < step) {
      return n + units[0];
    }
    double value = n;
    int unit = 0;
    while (value >= 1000 && unit < units.length - 1) {
      value /= step;
      unit++;
    }
    // Round first, then see whether the rounding pushed it into the next unit (999,960 is 1.0M, not 1000k).
    if (value < 9.95) {
      return String.format(Locale.US, "%.1f%s", value, units[unit]);
    }
    if (Math.round(value) < 1000 || unit == units.length - 1) {
      return String.format(Locale.US, "%.0f%s", value, units[unit]);
    }
    return String.format(Locale.US, "%.1f%s", value / step, units[unit + 1]);
  }

  /** Per second: 0.5 below ten, then whole and grouped (1,032). */
  static String rate(double perSecond) {
    return perSecond < 9.95
        ? String.format(Locale.US, "%.1f", perSecond)
        : String.format(Locale.US, "%,.0f", perSecond);
  }

  /** part of total as a whole percent; 0% when total is 0. */
  static String share(long part, long total) {
    return total == 0 ? "0%" : String.format(Locale.US, "%.0f%%", 100.0 * part / total);
  }

  /**
   * A fraction as a percent: whole from 1% up (11%), one significant figure below it
   * (0.3%, 0.0004%), {@code <0.0001%} below that, never in scientific notation.
   */
  static String percent(double fraction) {
    double p = fraction * 100;
    if (Double.isNaN(p) || Double.isInfinite(p)) {
      return "?%";
    }
    if (p == 0) {
      return "0%";
    }
    if (p < SMALLEST_PERCENT) {
      return "<0.0001%";
    }
    if (p >= 0.95) {
      return String.format(Locale.US, "%.0f%%", p);
    }
    return new BigDecimal(p).round(new MathContext(1)).stripTrailingZeros().toPlainString() + "%";
  }

  /** 45s, 3m 05s, 1h 02m 03s */
  static String duration(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.US, "%dm %02ds", s / 60, s % 60);
    }
    return String.format(Locale.US, "%dh %02dm %02ds", s / 3600, s / 60 % 60, s % 60);
  }
}
