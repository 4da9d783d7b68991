package dev.crawler.crawl;

import dev.crawler.status.CrawlStatus;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The folder of one crawl and what lives in it. Held under a file lock while a crawl runs,
 * so that two processes never share one frontier.
 *
 * <pre>
 *   crawl.lock      held by the running process
 *   seeds.txt       the seeds the crawl started from (a resume re-reads them for the scope)
 *   seeds.queued    present once the frontier holds the seeds (a resume without it queues them again)
 *   url-normal-form the settings that spell URLs, as the crawl began (a resume with others is refused)
 *   frontier/       RocksDB: the queues (module frontier)
 *   seen/           the URL-seen filter and its exact store (module dedup)
 *   robots/         RocksDB: robots.txt answers of the hosts met, kept for robots.cache-expiry
 *   warc/           gzipped WARC files
 *   crawl.log       one line per URL taken from the frontier
 *   stats.json      the latest counters (rewritten every stats interval and at the end)
 * </pre>
 */
public final class CrawlDirectory implements AutoCloseable {
  final Path root;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private CrawlDirectory(Path root, FileChannel lockChannel, FileLock lock) {
    this.root = root;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** Creates the folder if needed and locks it; fails with a message if another process holds it. */
  static CrawlDirectory lock(Path root) throws IOException {
    FileChannel channel;
    try {
      Files.createDirectories(root);
      channel = FileChannel.open(root.resolve("crawl.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (FileSystemException e) {
      // The JDK's message is often the path alone: say what is wrong, and that nothing started.
      throw new CrawlStartException("cannot use " + root + " as the crawl folder (crawl.data-dir): " + why(e));
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new CrawlStartException(root + " is in use by another crawl (its crawl.lock is held); stop that crawl "
          + "or give this one another crawl.data-dir");
    }
    return new CrawlDirectory(root, channel, lock);
  }

  private static String why(FileSystemException e) {
    String where = e.getFile() == null ? "" : " (" + e.getFile() + ")";
    if (e instanceof FileAlreadyExistsException) {
      return "a file is in the way" + where;
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied" + where;
    }
    return (e.getReason() != null ? e.getReason() : e.getClass().getSimpleName()) + where;
  }

  /** Names in the folder now; empty if it does not exist. */
  static Set<String> entries(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return Set.of();
    }
    try (Stream<Path> list = Files.list(root)) {
      return list.map(p -> p.getFileName().toString()).collect(Collectors.toUnmodifiableSet());
    }
  }

  /**
   * After a new crawl failed to open (a full disk): deletes what this crawl's parts created in
   * the folder, so that it does not pass for a crawl to resume. Only the crawl's own names, only
   * those that were not there {@code before}; the caller holds the lock. What cannot be deleted
   * is added to {@code failure} as suppressed.
   */
  static void removeCreatedSince(Path root, Set<String> before, Exception failure) {
    for (String name : CREATED_BY_A_CRAWL) {
      Path path = root.resolve(name);
      if (before.contains(name) || !Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try (Stream<Path> tree = Files.walk(path)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      } catch (IOException | UncheckedIOException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** True if the folder already holds the state of a crawl (a frontier, or a cluster node's partitions). */
  public static boolean holdsCrawl(Path root) {
    return Files.isDirectory(root.resolve("frontier")) || Files.isDirectory(root.resolve(NODE_PARTITIONS));
  }

  private static final String SEEDS_QUEUED = "seeds.queued";
  /** A cluster node's folder holds the state of each partition it owned here, rather than one frontier. */
  public static final String NODE_PARTITIONS = "partitions";

  /** What the parts of a crawl create in its folder (crawl.lock stays: it is released, not deleted). */
  private static final List<String> CREATED_BY_A_CRAWL =
      List.of("frontier", NODE_PARTITIONS, "seen", "robots", "queue-keys", "warc", "seeds.txt", SEEDS_QUEUED, FixedSettingsRecord.FILE,
          "crawl.log", "stats.json", "stats.json.tmp", CrawlStatus.ADDRESS_FILE);

  Path seeds() {
    return root.resolve("seeds.txt");
  }

  /** Whether the frontier was given the seeds (see {@link #markSeedsQueued}). */
  boolean seedsQueued() {
    return Files.exists(root.resolve(SEEDS_QUEUED));
  }

  /** Records that the frontier holds the seeds; a crawl killed before this queues them again on resume. */
  void markSeedsQueued() throws IOException {
    Files.write(root.resolve(SEEDS_QUEUED), new byte[0]);
  }

  Path frontier() {
    return root.resolve("frontier");
  }

  Path seen() {
    return root.resolve("seen");
  }

  Path robots() {
    return root.resolve("robots");
  }

  /** The hosts' queue keys under politeness.queue-by: ip. */
  Path queueKeys() {
    return root.resolve("queue-keys");
  }

  Path warc() {
    return root.resolve("warc");
  }

  Path crawlLog() {
    return root.resolve("crawl.log");
  }

  Path statsJson() {
    return root.resolve("stats.json");
  }

  Path statusAddress() {
    return root.resolve(CrawlStatus.ADDRESS_FILE);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
