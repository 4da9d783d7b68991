package dev.crawler.hostile;

import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.stats.StatsSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link SmallHeapCrawlTest}: crawls the hostile site's big bodies in a
 * small heap and prints one line, {@code stop=<reason> truncated=<n> bytes=<n>}.
 */
public final class SmallHeapCrawl {
  /** The cases whose bodies would not fit the child's heap if they were read whole. */
  static final List<String> BIG_BODIES = List.of(
      "http://gzip-bomb.example.com:{port}/page",
      "http://single-line.example.com:{port}/page",
      "http://endless-chunked.example.com:{port}/stream",
      "http://oversized.example.com:{port}/big",
      "http://many-links.example.com:{port}/page",
      "http://binary-html.example.com:{port}/page");

  private SmallHeapCrawl() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("small-heap-crawl");
    try (HostileSite site = HostileSite.start(BIG_BODIES);
        Crawl crawl = Crawl.open(HostileWebTest.config(dir.resolve("crawl"), true), Crawl.Start.NEW,
            CrawlEnvironment.standard().withDns(site.dns()).withSeeds(List.of(site.seed())))) {
      StopReason reason = crawl.run();
      StatsSnapshot stats = crawl.stats();
      System.out.println("stop=" + reason + " truncated=" + stats.outcome(CrawlOutcome.TRUNCATED)
          + " bytes=" + stats.bytes());
    }
  }
}
