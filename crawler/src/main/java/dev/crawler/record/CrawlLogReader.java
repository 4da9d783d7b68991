package dev.crawler.record;

import com.google.common.io.ByteStreams;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Reads a crawl log back, a {@link CrawlLogEntry} a line, for a resumed crawl's counts. */
public final class CrawlLogReader {
  private CrawlLogReader() {}

  /**
   * Hands each line from byte {@code from} on to {@code action}; blank lines are skipped, and
   * lines that are no crawl-log lines are counted, not handed on. So is a last line without its
   * line break, cut by a full disk or a power cut, even if what is left of it reads as a line:
   * its visit was not settled. If {@code from} begins no line (the log was replaced since the
   * length was kept), nothing is handed on.
   *
   * @param from a line's first byte (a length kept by {@link CrawlLog#atLength}); 0 for the whole log
   * @return the lines that could not be read; 0 as well if the file does not exist
   */
  public static long forEach(Path file, long from, Consumer<CrawlLogEntry> action) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    long unreadable = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long whole = wholeLinesLength(channel);
      if (whole < channel.size()) {
        unreadable++;   // the cut line
      }
      if (from >= whole || !startsALine(channel, from)) {
        return unreadable;
      }
      channel.position(from);
      // InputStreamReader replaces bad bytes (a line cut inside a character) instead of failing.
      BufferedReader reader = new BufferedReader(new InputStreamReader(
          ByteStreams.limit(Channels.newInputStream(channel), whole - from), StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank() || CrawlLogEntry.isComment(line)) {
          continue;
        }
        CrawlLogEntry entry;
        try {
          entry = CrawlLogEntry.parse(line);
        } catch (IllegalArgumentException e) {
          unreadable++;
          continue;
        }
        action.accept(entry);
      }
    }
    return unreadable;
  }

  /**
   * Every entry of a whole crawl log, the header skipped.
   *
   * @throws IllegalArgumentException if a line is not a crawl-log line (a line cut by a kill is one)
   */
  public static List<CrawlLogEntry> readAll(Path file) throws IOException {
    List<CrawlLogEntry> entries = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank() && !CrawlLogEntry.isComment(line)) {
        entries.add(CrawlLogEntry.parse(line));
      }
    }
    return entries;
  }

  /** Whether byte {@code offset} (within the file) begins a line: the first byte, or one after a line break. */
  private static boolean startsALine(FileChannel channel, long offset) throws IOException {
    if (offset == 0) {
      return true;
    }
    ByteBuffer before = ByteBuffer.allocate(1);
    return channel.read(before, offset - 1) == 1 && before.get(0) == '\n';
  }

  /** The file's bytes up to and including its last line break (0 if it has none). */
  static long wholeLinesLength(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(8192);
    long end = channel.size();
    while (end > 0) {
      long start = Math.max(0, end - buffer.capacity());
      buffer.clear().limit((int) (end - start));
      while (buffer.hasRemaining() && channel.read(buffer, start + buffer.position()) >= 0) {
        // fills the buffer
      }
      for (int i = buffer.position() - 1; i >= 0; i--) {
        if (buffer.get(i) == '\n') {
          return start + i + 1;
        }
      }
      end = start;
    }
    return 0;
  }
}
