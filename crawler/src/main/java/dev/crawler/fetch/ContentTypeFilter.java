package dev.crawler.fetch;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which media types have their body read. Patterns are {@code type/subtype}, {@code type/*} or
 * {@code *}{@code /*}, matched without case. A response that names no type is read: a crawler
 * that skipped those would miss many old servers' pages, and sniffing is the parser's job.
 */
final class ContentTypeFilter {
  /** Reads everything: robots.txt and sitemaps come with whatever type the server guesses. */
  static final ContentTypeFilter ANY = new ContentTypeFilter(List.of("*/*"));

  /** {@code type/subtype} or {@code type/*}; {@code *}{@code /*} is checked apart. */
  private static final Pattern MEDIA_RANGE = Pattern.compile("[^/\\s*;]+/(\\*|[^/\\s*;]+)");

  private final List<String> patterns;

  ContentTypeFilter(List<String> patterns) {
    this.patterns = patterns.stream().map(p -> p.trim().toLowerCase(Locale.ROOT)).toList();
    this.patterns.forEach(ContentTypeFilter::checkPattern);
  }

  static void checkPattern(String pattern) {
    String trimmed = pattern == null ? "" : pattern.trim();
    checkArgument(trimmed.equals("*/*") || MEDIA_RANGE.matcher(trimmed).matches(),
        "Accepted content type (%s) must look like text/html, text/* or */*", pattern);
  }

  /** @param contentType lower-case {@code type/subtype} without parameters, or null if none was named */
  boolean accepts(String contentType) {
    if (contentType == null) {
      return true;
    }
    for (String pattern : patterns) {
      boolean matches = pattern.equals("*/*") || pattern.equals(contentType)
          || (pattern.endsWith("/*") && contentType.startsWith(pattern.substring(0, pattern.length() - 1)));
      if (matches) {
        return true;
      }
    }
    return false;
  }
}
