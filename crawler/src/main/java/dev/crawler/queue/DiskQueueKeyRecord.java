package dev.crawler.queue;

import dev.crawler.store.SmallStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.rocksdb.RocksDBException;

/**
 * The queue keys decided by address, in RocksDB in the crawl folder. Key: the host name's UTF-8
 * bytes; value: the queue key's, empty for "by name" (the host did not resolve when it was
 * decided, so its key is its host key, with its port). Writes go through the write-ahead log
 * without fsync, as the frontier's do: a killed process keeps every key written before its URLs
 * were queued. Unlike the robots.txt store, a failure is thrown, not forgotten: a key this
 * record lost would split its host over two queues after a resume. Calls are serialized: there is
 * one a new host, far fewer than a RocksDB write takes to become a bottleneck.
 */
public final class DiskQueueKeyRecord implements QueueKeyRecord {
  private final Path directory;
  private final SmallStore store;
  /** Lookups still under way at a close may try to record their host: refused, not a use of a closed store. */
  private boolean closed;

  private DiskQueueKeyRecord(Path directory, SmallStore store) {
    this.directory = directory;
    this.store = store;
  }

  /**
   * Opens the record in {@code directory}, creating it if missing.
   *
   * @throws IOException if it cannot be opened there (a full disk, a damaged store)
   */
  public static DiskQueueKeyRecord open(Path directory) throws IOException {
    return new DiskQueueKeyRecord(directory, SmallStore.open(directory, "the queue keys of politeness.queue-by: ip"));
  }

  @Override
  public synchronized String get(String host) {
    checkOpen();
    try {
      byte[] value = store.get(bytes(host));
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    } catch (RocksDBException e) {
      throw failed("read", host, e);
    }
  }

  @Override
  public synchronized void put(String host, String key) {
    checkOpen();
    try {
      store.put(bytes(host), bytes(key));
    } catch (RocksDBException e) {
      throw failed("write", host, e);
    }
  }

  private UncheckedIOException failed(String what, String host, RocksDBException e) {
    return new UncheckedIOException(new IOException("Cannot " + what + " the queue key of " + host + " in "
        + directory + ": " + e.getMessage(), e));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the queue keys in " + directory + " are closed");
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    store.close();
  }
}
