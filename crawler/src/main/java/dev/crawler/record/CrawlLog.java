package dev.crawler.record;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The crawl log: one {@link CrawlLogEntry} line per URL taken from the frontier, appended to
 * one UTF-8 file. A resumed crawl appends to the same file; if the previous crawl was killed in
 * the middle of a line, that cut line is ended first, so it stays one bad line instead of
 * spoiling the first new one.
 *
 * <p>Thread-safe. Each line is handed to the operating system before {@link #log} returns (one
 * write call, no fsync), so a kill -9 loses no line: the crawl settles a URL in its frontier only
 * after logging it, and a URL settled without its line would be missing from the log for good
 * (a buffer that flushed once a second lost about a second of lines at each kill). A power cut
 * may still lose the last lines. I/O failures throw {@link UncheckedIOException} naming the file.
 */
public final class CrawlLog implements AutoCloseable {
  private final Path file;
  private final ReentrantLock lock = new ReentrantLock();
  private final OutputStream stream;
  private final Writer out;
  private boolean closed;
  /**
   * The first write that failed (a full disk). Every later call throws it: the writer keeps the
   * characters it could not write, and writing them later, after space was freed, would log a
   * URL whose visit never completed; a resume then logs (and counts) it a second time.
   */
  private UncheckedIOException failed;

  public CrawlLog(Path file) {
    this.file = Objects.requireNonNull(file, "file");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      boolean endsCut = endsWithoutLineBreak(file);
      stream = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 64 * 1024);
      if (endsCut) {
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open crawl log " + file + ": " + e.getMessage(), e);
    }
  }

  public void log(CrawlLogEntry entry) {
    String line = entry.format();
    lock.lock();
    try {
      checkOpen();
      out.write(line);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw failure(e);
    } finally {
      lock.unlock();
    }
  }

  public void flush() {
    lock.lock();
    try {
      checkOpen();
      out.flush();
    } catch (IOException e) {
      throw failure(e);
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
      if (failed != null) {
        stream.close();   // not out.close(): it would write what the failed write left behind
        return;
      }
      out.close();
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

  private static boolean endsWithoutLineBreak(Path file) throws IOException {
    if (!Files.exists(file)) {
      return false;
    }
    try (SeekableByteChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      if (channel.size() == 0) {
        return false;
      }
      ByteBuffer last = ByteBuffer.allocate(1);
      channel.position(channel.size() - 1).read(last);
      return last.get(0) != '\n';
    }
  }
}
