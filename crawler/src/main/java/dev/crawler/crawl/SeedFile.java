package dev.crawler.crawl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A seed file: one URL a line; blank lines and text after '#' ignored (a URL never holds a
 * bare '#' before its fragment is dropped, so "http://a/#top" keeps working: '#' only starts
 * a comment at the start of a line or after whitespace).
 */
public final class SeedFile {
  private SeedFile() {}

  /** A seed and the line it came from, so a bad one can be reported where it is. */
  public record Seed(int line, String url) {}

  public static List<Seed> read(Path file) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CrawlStartException("seed file " + file + " does not exist; set crawl.seeds or pass --seeds FILE");
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new CrawlStartException("seed file " + file + " is not UTF-8 text; save it as UTF-8 (URLs are ASCII, or "
          + "UTF-8 for international names and paths)");
    }
    List<Seed> seeds = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      // A byte order mark (Notepad saves one) is no part of the first URL; strip() keeps it.
      if (i == 0 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      String text = stripComment(line).strip();
      if (!text.isEmpty()) {
        seeds.add(new Seed(i + 1, text));
      }
    }
    return seeds;
  }

  private static String stripComment(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }
}
