package dev.crawler.crawl;

import dev.crawler.dedup.UrlNormalizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The settings that decide how a URL is spelled, kept in the crawl folder
 * ({@value #FILE}) when a crawl begins, so that a resume with other ones is refused. The URL-seen
 * filter and store hold fingerprints of spellings: with {@code normalize.sort-query} turned on,
 * say, every link found again would get a new spelling, pass as new, and every page already
 * fetched would be fetched again. ({@code frontier.partitions} is guarded the same way by the
 * frontier's store.)
 */
final class NormalFormRecord {
  static final String FILE = "url-normal-form";

  private NormalFormRecord() {}

  /** One line a setting, in a fixed order; parameter names lower-cased and sorted, as they match. */
  static String describe(UrlNormalizer.Options options) {
    TreeSet<String> strip = new TreeSet<>();
    options.stripParameters().forEach(p -> strip.add(p.toLowerCase(Locale.ROOT)));
    return "normalize.strip-parameters: " + strip + "\n"
        + "normalize.sort-query: " + options.sortQuery() + "\n"
        + "scope.max-url-length: " + options.maxLength() + "\n";
  }

  /** Writes the crawl's normal form (a new crawl, or one begun before this record existed). */
  static void write(Path crawlDir, UrlNormalizer.Options options) throws IOException {
    Path file = crawlDir.resolve(FILE);
    Path temp = crawlDir.resolve(FILE + ".tmp");
    Files.writeString(temp, describe(options), StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Refuses a resume whose settings spell URLs otherwise than the crawl's did.
   *
   * @throws CrawlStartException naming the settings that changed
   */
  static void check(Path crawlDir, UrlNormalizer.Options options, String configSource) throws IOException {
    Path file = crawlDir.resolve(FILE);
    if (!Files.exists(file)) {
      write(crawlDir, options);   // begun before the record was kept: from now on, these settings
      return;
    }
    String recorded = Files.readString(file, StandardCharsets.UTF_8);
    String now = describe(options);
    if (recorded.equals(now)) {
      return;
    }
    StringBuilder changed = new StringBuilder();
    String[] was = recorded.split("\n");
    String[] is = now.split("\n");
    for (int i = 0; i < is.length; i++) {
      if (i >= was.length || !was[i].equals(is[i])) {
        changed.append(changed.isEmpty() ? "" : "; ").append(is[i]).append(" (the crawl began with ")
            .append(i < was.length ? was[i].substring(was[i].indexOf(':') + 2) : "another value").append(')');
      }
    }
    throw new CrawlStartException(configSource + " spells URLs otherwise than the crawl in " + crawlDir + " did: "
        + changed + ". Every page already fetched would pass as new and be fetched again: put back the crawl's "
        + "values to resume it, or start a new crawl in another crawl.data-dir");
  }
}
