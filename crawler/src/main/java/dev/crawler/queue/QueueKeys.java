package dev.crawler.queue;

import java.util.List;

/**
 * A URL's frontier queue key under the crawl's {@code politeness.queue-by} ({@link QueueBy#keys}).
 * Closed by its owner, after the crawl's workers have stopped.
 */
@FunctionalInterface
public interface QueueKeys extends AutoCloseable {
  /**
   * The queue key of a URL that scope let in.
   *
   * @throws IllegalArgumentException if the URL is not an http(s) URL with a host
   */
  String of(String normalizedUrl);

  /** The keys of a page's URLs, in their order; keys that need a lookup may be looked up side by side. */
  default List<String> ofAll(List<String> normalizedUrls) {
    return normalizedUrls.stream().map(this::of).toList();
  }

  @Override
  default void close() {
  }
}
