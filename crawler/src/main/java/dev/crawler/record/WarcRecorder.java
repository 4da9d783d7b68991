package dev.crawler.record;

import static com.google.common.base.Preconditions.checkArgument;

import dev.crawler.fetch.FetchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every fetch that got a response to WARC 1.1 files: a response record (status line and
 * headers as received, body as kept) and a request record (the headers sent), each gzip-compressed
 * on its own. Fetches that got no response write nothing; the crawl log has them.
 *
 * <p>Files are named {@code <prefix>-<yyyyMMddHHmmss>-<seq>.warc.gz} (UTC time the file was
 * opened, a five-digit sequence that continues past the files already in the directory, so a
 * resumed crawl never overwrites). Each starts with a warcinfo record, is written as
 * {@code <name>.open}, and gets its name when it is closed: when the next exchange would take it
 * past {@code maxFileBytes} (a file holds at least one exchange, so one bigger than the limit
 * still gets written), or at {@link #close()}. No file is created until the first exchange.
 *
 * <p>Thread-safe: records are compressed on the calling thread and appended under a lock, an
 * exchange's two records together. An I/O failure (a full disk) is thrown as an
 * {@link UncheckedIOException} naming the file, and every later call throws it again: the crawl
 * should stop, and the {@code .open} file keeps every record written before the failure.
 */
public final class WarcRecorder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WarcRecorder.class);
  private static final DateTimeFormatter FILE_TIME =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  private final Path dir;
  private final String filePrefix;
  private final long maxFileBytes;
  private final int gzipLevel;
  private final String software;
  private final WarcFile.Opener opener;
  private final InstantSource clock;
  private final ConcurrentLinkedQueue<RecordEncoder> encoders = new ConcurrentLinkedQueue<>();
  /** ReentrantLock, not synchronized: a virtual thread blocked on file I/O would pin its carrier. */
  private final ReentrantLock lock = new ReentrantLock();

  // Guarded by lock.
  private WarcFile current;
  private int nextSequence;
  private volatile boolean closed;
  private UncheckedIOException failure;

  /**
   * @param gzipLevel deflate level of each record's gzip member, 1 (fastest) to 9 (smallest)
   */
  public WarcRecorder(Path dir, String filePrefix, long maxFileBytes, int gzipLevel, String software) {
    this(dir, filePrefix, maxFileBytes, gzipLevel, software, WarcFile.Opener.FILES, InstantSource.system());
  }

  WarcRecorder(Path dir, String filePrefix, long maxFileBytes, String software, WarcFile.Opener opener,
      InstantSource clock) {
    this(dir, filePrefix, maxFileBytes, RecordEncoder.DEFAULT_GZIP_LEVEL, software, opener, clock);
  }

  WarcRecorder(Path dir, String filePrefix, long maxFileBytes, int gzipLevel, String software,
      WarcFile.Opener opener, InstantSource clock) {
    checkArgument(maxFileBytes > 0, "WARC max file size (%s bytes) must be > 0", maxFileBytes);
    checkArgument(gzipLevel >= 1 && gzipLevel <= 9, "WARC gzip level (%s) must be from 1 to 9", gzipLevel);
    this.gzipLevel = gzipLevel;
    checkArgument(filePrefix != null && !filePrefix.isBlank() && filePrefix.indexOf('/') < 0
        && filePrefix.indexOf('\\') < 0, "WARC file prefix (%s) must be a non-blank file name", filePrefix);
    this.dir = Objects.requireNonNull(dir, "dir");
    this.filePrefix = filePrefix;
    this.maxFileBytes = maxFileBytes;
    this.software = Objects.requireNonNull(software, "software");
    this.opener = opener;
    this.clock = clock;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the WARC directory " + dir + ": " + e, e);
    }
    this.nextSequence = firstFreeSequence();
  }

  /**
   * Writes the request and response records of a fetch whose response headers arrived, its body
   * whole or not (a reset or a timeout part way is marked WARC-Truncated, as Heritrix does: a
   * redirect whose body was cut is still followed, and the chain needs its record); ignores
   * fetches that got no response.
   */
  public void record(FetchResult result) {
    Objects.requireNonNull(result, "result");
    if (result.httpStatus() == 0) {
      return;
    }
    RecordEncoder encoder = borrowEncoder();
    // The file is written with the interrupt set aside (a stop interrupts the workers still
    // running at the end of its grace), and it is left for the caller after.
    boolean interrupted = Thread.interrupted();
    try {
      ByteBuffer records;
      try {
        records = encoder.encodeExchange(result);
      } catch (IOException | RuntimeException e) {
        // In-memory encoding has no I/O to fail; a failure here is jwarc refusing the input. The
        // encoder may be left half-way through a record: it is not used again. Not an
        // IOException's cause, so the crawl does not take it for a full disk and stop.
        encoder.close();
        encoder = null;
        throw new IllegalStateException("Cannot encode WARC records for " + result.url() + ": " + e);
      }
      append(records);
    } finally {
      if (encoder != null) {
        returnEncoder(encoder);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Finishes and renames the current file. A second call does nothing. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (current != null && failure == null) {
        finishCurrent();
      }
    } finally {
      lock.unlock();
      // Encoders borrowed at this moment are closed by their record() when it finds the pool gone.
      for (RecordEncoder e = encoders.poll(); e != null; e = encoders.poll()) {
        e.close();
      }
    }
  }

  private void append(ByteBuffer records) {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("WarcRecorder for " + dir + " is closed; record() must come before close()");
      }
      if (failure != null) {
        throw new UncheckedIOException("WARC writing stopped after an earlier failure: " + failure.getMessage(),
            failure.getCause());
      }
      if (current != null && current.exchanges() > 0 && current.size() + records.remaining() > maxFileBytes) {
        finishCurrent();
      }
      if (current == null) {
        current = openNext();
      }
      try {
        current.append(records);
        current.countExchange();
      } catch (IOException e) {
        throw fail("Cannot write WARC file " + current.openPath(), e);
      }
    } finally {
      lock.unlock();
    }
  }

  private WarcFile openNext() {
    Instant now = clock.instant();
    String name = String.format(Locale.ROOT, "%s-%s-%05d.warc.gz", filePrefix, FILE_TIME.format(now), nextSequence++);
    Path path = dir.resolve(name);
    // Encoded before the file exists: jwarc refusing its input (a bug) then creates no file and is
    // not taken for a disk failure (which would stop the crawl).
    RecordEncoder encoder = borrowEncoder();
    ByteBuffer warcinfo;
    try {
      warcinfo = encoder.encodeWarcinfo(now, name, software, filePrefix);
    } catch (IOException | RuntimeException e) {
      encoder.close();   // maybe half-way through a record: not pooled again (see record)
      throw new IllegalStateException("Cannot encode the warcinfo record of " + name + ": " + e);
    }
    WarcFile file;
    try {
      file = WarcFile.create(path, opener);
    } catch (IOException e) {
      returnEncoder(encoder);
      throw fail("Cannot create WARC file " + path + WarcFile.OPEN_SUFFIX, e);
    }
    try {
      file.append(warcinfo);
    } catch (IOException e) {
      current = file;
      throw fail("Cannot write WARC file " + file.openPath(), e);
    } finally {
      returnEncoder(encoder);
    }
    log.debug("Writing {}", file.openPath());
    return file;
  }

  private void finishCurrent() {
    WarcFile file = current;
    try {
      file.finish();
      current = null;
      log.debug("Finished {} ({} exchanges, {} bytes)", file.finalPath(), file.exchanges(), file.size());
    } catch (IOException e) {
      throw fail("Cannot finish WARC file " + file.openPath(), e);
    }
  }

  /** Remembers the failure (every later call throws it again) and closes the damaged file as it is. */
  private UncheckedIOException fail(String what, IOException cause) {
    failure = new UncheckedIOException(what + ": " + cause.getMessage(), cause);
    if (current != null) {
      current.abandon();
      log.warn("WARC writing stopped: {}. {} keeps the records written before; its last one may be cut.",
          failure.getMessage(), current.openPath());
      current = null;
    }
    return failure;
  }

  private RecordEncoder borrowEncoder() {
    RecordEncoder encoder = encoders.poll();
    return encoder != null ? encoder : new RecordEncoder(gzipLevel);
  }

  private void returnEncoder(RecordEncoder encoder) {
    if (encoder.worthKeeping() && !closed) {
      encoders.offer(encoder);
    } else {
      encoder.close();
    }
  }

  /** One past the highest sequence number of this prefix in the directory, so files are never overwritten. */
  private int firstFreeSequence() {
    Pattern ours = Pattern.compile(Pattern.quote(filePrefix) + "-\\d{14}-(\\d{5,9})\\.warc\\.gz(\\.open)?");
    int next = 0;
    List<Path> leftOpen = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        Matcher m = ours.matcher(file.getFileName().toString());
        if (m.matches()) {
          next = Math.max(next, Integer.parseInt(m.group(1)) + 1);
          if (m.group(2) != null) {
            leftOpen.add(file);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the WARC directory " + dir + ": " + e, e);
    }
    for (Path file : leftOpen) {
      try {
        LeftoverWarc.finish(file);
      } catch (IOException e) {
        log.warn("{} was left open by an earlier crawl that did not stop cleanly and could not be finished ({}); "
            + "its records are readable up to the last complete one", file, e.getMessage());
      }
    }
    return next;
  }

  @Override
  public String toString() {
    return "WarcRecorder[" + dir.resolve(filePrefix) + "-*.warc.gz, max " + maxFileBytes + " bytes]";
  }
}
