package dev.crawler.crawl;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The folder of one crawl and what lives in it. Held under a file lock while a crawl runs,
 * so that two processes never share one frontier.
 *
 * <pre>
 *   crawl.lock      held by the running process
 *   seeds.txt       the seeds the crawl started from (a resume re-reads them for the scope)
 *   frontier/       RocksDB: the queues (module frontier)
 *   seen/           the URL-seen filter and its exact store (module dedup)
 *   warc/           gzipped WARC files
 *   crawl.log       one line per URL taken from the frontier
 *   stats.json      the latest counters (rewritten every stats interval and at the end)
 * </pre>
 */
final class CrawlDirectory implements AutoCloseable {
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
    Files.createDirectories(root);
    FileChannel channel = FileChannel.open(root.resolve("crawl.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
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

  /** True if the folder already holds the state of a crawl (a frontier). */
  static boolean holdsCrawl(Path root) {
    return Files.isDirectory(root.resolve("frontier"));
  }

  Path seeds() {
    return root.resolve("seeds.txt");
  }

  Path frontier() {
    return root.resolve("frontier");
  }

  Path seen() {
    return root.resolve("seen");
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

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
