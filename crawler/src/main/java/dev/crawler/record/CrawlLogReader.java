package dev.crawler.record;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/** Reads a crawl log back, a {@link CrawlLogEntry} a line, for a resumed crawl's counts. */
public final class CrawlLogReader {
  private CrawlLogReader() {}

  /**
   * Hands each line from byte {@code from} on to {@code action}; blank lines are skipped, and
   * lines that are no crawl-log lines (one cut by a kill) are counted, not handed on.
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
      channel.position(from);
      // InputStreamReader replaces bad bytes (a line cut inside a character) instead of failing.
      BufferedReader reader = new BufferedReader(
          new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
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
}
