package dev.crawler.record;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The crawl log: one {@link CrawlLogEntry} line per URL taken from the frontier, appended to
 * one UTF-8 file. A resumed crawl appends to the same file. If the previous run left a line
 * cut (a full disk, a power cut), its bytes are removed first: its visit was neither counted nor
 * settled, so the URL is visited and logged again, and a cut line that still read as a whole one
 * (cut inside its last column) would count that visit twice.
 *
 * <p>Thread-safe. Each line is handed to the operating system before {@link #log} returns (one
 * write call, no fsync), so a kill -9 loses no line: the crawl settles a URL in its frontier only
 * after logging it, and a URL settled without its line would be missing from the log for good
 * (a buffer that flushed once a second lost about a second of lines at each kill). A power cut
 * may still lose the last lines. I/O failures throw {@link UncheckedIOException} naming the file.
 *
 * <p>The log keeps its length. A line's counting can run under the log's lock
 * ({@link #log(CrawlLogEntry, Runnable)}), and counters read under it ({@link #atLength}) then
 * hold exactly the lines before that length: a crawl resumed after a kill counts the lines after
 * the length its last stats.json names, and its totals are exact.
 */
public final class CrawlLog implements AutoCloseable {
  private final Path file;
  private final ReentrantLock lock = new ReentrantLock();
  /** Written a whole line at a time, unbuffered: one write call a line. */
  private final OutputStream stream;
  /** Bytes in the file: every whole line written so far ends here. */
  private long length;
  private boolean closed;
  /**
   * The first write that failed (a full disk). Every later call throws it: a line written after
   * space was freed would follow the failed one's cut bytes, and the visit whose line failed
   * never completed, so a resume logs (and counts) its URL again.
   */
  private UncheckedIOException failed;

  public CrawlLog(Path file) {
    this.file = Objects.requireNonNull(file, "file");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      length = dropCutLine(file);
      stream = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open crawl log " + file + ": " + e.getMessage(), e);
    }
  }

  public void log(CrawlLogEntry entry) {
    log(entry, null);
  }

  /**
   * Writes the entry's line, then runs {@code counted} (its stats), both under the log's lock: a
   * reader of the counters under {@link #atLength} sees the line and its count together or
   * neither. {@code counted} does not run if the line could not be written.
   */
  public void log(CrawlLogEntry entry, Runnable counted) {
    byte[] line = (entry.format() + '\n').getBytes(StandardCharsets.UTF_8);
    lock.lock();
    try {
      checkOpen();
      if (length == 0) {
        byte[] header = (CrawlLogEntry.HEADER + '\n').getBytes(StandardCharsets.UTF_8);
        stream.write(header);
        length += header.length;
      }
      stream.write(line);
      length += line.length;
      if (counted != null) {
        counted.run();
      }
    } catch (IOException e) {
      throw failure(e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Calls {@code read} with the log's length, under its lock: no line is written meanwhile, so
   * what {@code read} reads of counters that {@link #log(CrawlLogEntry, Runnable)} keeps holds the
   * lines before that length and none after. Works on a closed or failed log too.
   */
  public <T> T atLength(java.util.function.LongFunction<T> read) {
    lock.lock();
    try {
      return read.apply(length);
    } finally {
      lock.unlock();
    }
  }

  /** Flushes and closes the file. A second call does nothing. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      stream.close();
    } catch (IOException e) {
      throw failure(e);
    } finally {
      lock.unlock();
    }
  }

  public Path file() {
    return file;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("Crawl log " + file + " is closed");
    }
    if (failed != null) {
      throw failed;
    }
  }

  private UncheckedIOException failure(IOException e) {
    failed = new UncheckedIOException("Cannot write crawl log " + file + ": " + e.getMessage(), e);
    return failed;
  }

  /** Cuts the file after its last line break, if anything follows it; returns the file's length. */
  private static long dropCutLine(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long end = channel.size();
      long whole = CrawlLogReader.wholeLinesLength(channel);
      if (whole < end) {
        channel.truncate(whole);
      }
      return whole;
    }
  }

}
