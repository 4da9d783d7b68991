package dev.crawler.store;

import java.io.IOException;
import org.rocksdb.RocksDBException;

/**
 * Tells a failure of the crawl's own storage (its files and stores: a full disk, a broken
 * store) from a bug. A storage failure stops the crawl and leaves its state for a resume; it
 * is expected, so it is reported by its message, never by a stack trace.
 */
public final class StorageFailure {
  /** strerror(ENOSPC) and strerror(EDQUOT), as the JDK and RocksDB put them in their messages. */
  private static final String[] DISK_FULL = {"No space left on device", "Disk quota exceeded"};

  private StorageFailure() {}

  /** True if an I/O or RocksDB error is in the cause chain. */
  public static boolean is(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof RocksDBException) {
        return true;
      }
    }
    return false;
  }

  /** True if the cause chain says the disk (or the user's quota on it) is full. */
  public static boolean isDiskFull(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null) {
        for (String words : DISK_FULL) {
          if (message.contains(words)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
