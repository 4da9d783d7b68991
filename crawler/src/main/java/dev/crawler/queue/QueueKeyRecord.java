package dev.crawler.queue;

/**
 * Where {@code politeness.queue-by: ip} keeps each host's queue key once decided, for the life of
 * the crawl: a host whose key changed (a DNS answer that moved, a lookup that failed once, a
 * resume) would have its URLs in two queues, each with its own delay and connection.
 */
public interface QueueKeyRecord extends AutoCloseable {
  /**
   * The key decided for the host, or null if none was.
   *
   * @throws java.io.UncheckedIOException if the record cannot be read
   */
  String get(String host);

  /**
   * Records the host's key; it survives a killed process once this returns.
   *
   * @throws java.io.UncheckedIOException if it cannot be written (a full disk)
   */
  void put(String host, String key);

  @Override
  void close();
}
