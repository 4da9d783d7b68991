package dev.crawler.queue;

import dev.crawler.url.CrawlUrl;
import java.util.List;

/**
 * A URL's frontier queue key under the crawl's {@code politeness.queue-by} ({@link QueueBy#keys}).
 * Closed by its owner, after the crawl's workers have stopped.
 */
@FunctionalInterface
public interface QueueKeys extends AutoCloseable {
  /** The queue key of a URL that scope let in. */
  String of(CrawlUrl url);

  /** The keys of a page's URLs, in their order; keys that need a lookup may be looked up side by side. */
  default List<String> ofAll(List<CrawlUrl> urls) {
    return urls.stream().map(this::of).toList();
  }

  @Override
  default void close() {
  }
}
