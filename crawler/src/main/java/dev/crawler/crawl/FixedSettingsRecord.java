package dev.crawler.crawl;

import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.queue.QueueBy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The settings fixed for the life of a crawl, kept in the crawl folder ({@value #FILE}) when it
 * begins, so that a resume with other ones is refused:
 * <ul>
 *   <li>how a URL is spelled: the URL-seen filter and store hold fingerprints of spellings, so
 *       with {@code normalize.sort-query} turned on, say, every link found again would get a new
 *       spelling, pass as new, and every page already fetched would be fetched again;
 *   <li>{@code politeness.queue-by}: the URLs already queued stay in queues of the kind they were
 *       offered to, so a site would be served by its old queues and its new one at once, beyond
 *       its delay and connection limit.
 * </ul>
 * ({@code frontier.partitions} is guarded the same way by the frontier's store.) One line a
 * setting; the queue-by line only when it is not the default, so a record written before it
 * existed reads as "host".
 */
final class FixedSettingsRecord {
  static final String FILE = "url-normal-form";   // its name from when it held the spelling only

  private static final String QUEUE_BY = "politeness.queue-by";
  /** What a changed setting would do, by kind. */
  private static final String SPELLING_CHANGED =
      "URLs would be spelled otherwise, so every page already fetched would pass as new and be fetched again";
  private static final String QUEUES_SPLIT = "the URLs already queued would stay in their old queues beside the "
      + "new ones, and a site would be fetched by both at once, beyond its delay and connection limit";

  private FixedSettingsRecord() {}

  /** One line a setting, in a fixed order; parameter names lower-cased and sorted, as they match. */
  static String describe(UrlNormalizer.Options options, QueueBy queueBy) {
    TreeSet<String> strip = new TreeSet<>();
    options.stripParameters().forEach(p -> strip.add(p.toLowerCase(Locale.ROOT)));
    return "normalize.strip-parameters: " + strip + "\n"
        + "normalize.sort-query: " + options.sortQuery() + "\n"
        + "scope.max-url-length: " + options.maxLength() + "\n"
        + (queueBy == QueueBy.HOST ? "" : QUEUE_BY + ": " + name(queueBy) + "\n");
  }

  /** Writes the crawl's settings (a new crawl, or one begun before this record existed). */
  static void write(Path crawlDir, UrlNormalizer.Options options, QueueBy queueBy) throws IOException {
    Path file = crawlDir.resolve(FILE);
    Path temp = crawlDir.resolve(FILE + ".tmp");
    Files.writeString(temp, describe(options, queueBy), StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Refuses a resume whose settings differ from the ones the crawl began with.
   *
   * @throws CrawlStartException naming the settings that changed and what they would do
   */
  static void check(Path crawlDir, UrlNormalizer.Options options, QueueBy queueBy, String configSource)
      throws IOException {
    Path file = crawlDir.resolve(FILE);
    boolean recorded = Files.exists(file);
    // A crawl begun before the record was kept: its spelling is taken as the one given now (no
    // build could tell), but its queues were by host, the only kind those builds made.
    Map<String, String> was = settings(recorded ? Files.readString(file, StandardCharsets.UTF_8)
        : describe(options, QueueBy.HOST));
    Map<String, String> is = settings(describe(options, queueBy));
    List<String> changed = new ArrayList<>();
    List<String> why = new ArrayList<>();
    for (Map.Entry<String, String> setting : is.entrySet()) {
      String before = was.getOrDefault(setting.getKey(), "another value");
      if (!before.equals(setting.getValue())) {
        changed.add(setting.getKey() + ": " + setting.getValue() + " (the crawl began with " + before + ")");
        String consequence = setting.getKey().equals(QUEUE_BY) ? QUEUES_SPLIT : SPELLING_CHANGED;
        if (!why.contains(consequence)) {
          why.add(consequence);
        }
      }
    }
    if (changed.isEmpty()) {
      if (!recorded) {
        write(crawlDir, options, queueBy);   // from now on, these settings
      }
      return;
    }
    throw new CrawlStartException(configSource + " changes settings fixed for the crawl in " + crawlDir + ": "
        + String.join("; ", changed) + ". " + capitalized(String.join("; and ", why))
        + ": put back the crawl's values to resume it, or start a new crawl in another crawl.data-dir");
  }

  /** "key: value" lines to a map; the queue key defaults to host, the only kind before it was recorded. */
  private static Map<String, String> settings(String record) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String line : record.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon > 0) {
        settings.put(line.substring(0, colon), line.substring(colon + 2));
      }
    }
    settings.putIfAbsent(QUEUE_BY, name(QueueBy.HOST));
    return settings;
  }

  private static String name(QueueBy queueBy) {
    return queueBy.name().toLowerCase(Locale.ROOT);
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
