package dev.crawler.robots;

import dev.crawler.store.SmallStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * robots.txt answers on disk, in RocksDB, so that a crawl whose hosts come round less often
 * than the memory cache keeps them (a crawl over a million hosts, served in turn, against the
 * 100,000 of {@code robots.cache-hosts}) does not fetch robots.txt again at every turn, and a
 * resumed crawl does not fetch them all again. Heritrix keeps them in its on-disk server cache
 * for the same reason.
 *
 * <p>Key: the host key's UTF-8 bytes; value: {@link StoredRobots#encode()}. Writes go through
 * the write-ahead log without fsync: after a crash the last few answers may be missing, which
 * costs a fetch each. Expired entries are overwritten by the next fetch, never deleted.
 */
public final class DiskRobotsStore implements RobotsStore {
  private static final Logger log = LoggerFactory.getLogger(DiskRobotsStore.class);

  private final Path directory;
  private final SmallStore store;
  /** A failed read or write is logged once, then counted only: a full disk would repeat it for every host. */
  private final AtomicBoolean failureLogged = new AtomicBoolean();

  private DiskRobotsStore(Path directory, SmallStore store) {
    this.directory = directory;
    this.store = store;
  }

  /**
   * Opens the store in {@code directory}, creating it if missing. One that RocksDB finds
   * corrupt is set aside as {@code directory.damaged-N} and a new one started, with a warning:
   * what it held is only worth one fetch per host.
   *
   * @throws IOException if no store can be opened there (the disk is full, say)
   */
  public static DiskRobotsStore open(Path directory) throws IOException {
    try {
      return tryOpen(directory);
    } catch (IOException first) {
      // Only damage is set aside; a full disk, a held lock or too many open files say nothing
      // about the store, and moving it would only lose it.
      if (!(first.getCause() instanceof RocksDBException e && e.getStatus() != null
          && e.getStatus().getCode() == org.rocksdb.Status.Code.Corruption)) {
        throw first;
      }
      Path aside = directory.resolveSibling(directory.getFileName() + ".damaged-" + System.currentTimeMillis());
      log.warn("The robots.txt store in {} cannot be opened ({}); it is moved to {} and a new one started: "
          + "robots.txt files are fetched again as hosts come up", directory, first.getMessage(), aside);
      Files.move(directory, aside);
      return tryOpen(directory);
    }
  }

  private static DiskRobotsStore tryOpen(Path directory) throws IOException {
    return new DiskRobotsStore(directory, SmallStore.open(directory, "the robots.txt store"));
  }

  @Override
  public Optional<StoredRobots> get(String hostKey) {
    byte[] value;
    try {
      value = store.get(key(hostKey));
    } catch (RocksDBException e) {
      failed("read", e);
      return Optional.empty();
    }
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(StoredRobots.decode(value));
    } catch (IllegalArgumentException e) {
      log.debug("Unreadable robots.txt entry for {}: {}; fetched again", hostKey, e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public void put(String hostKey, StoredRobots answer) {
    byte[] value = answer.encode();
    if (value == null) {
      return;
    }
    try {
      store.put(key(hostKey), value);
    } catch (RocksDBException e) {
      failed("write", e);
    }
  }

  private void failed(String what, RocksDBException e) {
    if (failureLogged.compareAndSet(false, true)) {
      log.warn("The robots.txt store in {} could not {} an entry ({}); robots.txt files it cannot keep are fetched "
          + "again when their host comes up. Further failures are not logged.", directory, what, e.getMessage());
    }
  }

  private static byte[] key(String hostKey) {
    return hostKey.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    store.close();
  }
}
