package dev.crawler.scope;

/** A URL's frontier queue key under the crawl's {@code politeness.queue-by} ({@link QueueBy#keys}). */
@FunctionalInterface
public interface QueueKeys {
  /**
   * The queue key of a URL that scope let in.
   *
   * @throws IllegalArgumentException if the URL is not an http(s) URL with a host
   */
  String of(String normalizedUrl);
}
