package dev.crawler.crawl;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Crawl throughput, end to end, against the generated site on loopback: pages per second with
 * every stage on (robots, parse, normalize, scope, URL-seen, frontier, WARC, crawl log).
 * A bench command, not a test: the figures go in crawler/README.md.
 *
 * <p>Arguments: hosts, pages per host, workers, seen policy (accept|verify), warc (true|false).
 */
public final class CrawlBench {
  public static void main(String[] args) throws Exception {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int pages = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int workers = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    String policy = args.length > 3 ? args[3] : "verify";
    boolean warc = args.length <= 4 || Boolean.parseBoolean(args[4]);
    Path dir = Files.createTempDirectory("crawl-bench-");
    try (DemoSite site = DemoSite.start(DemoSiteSpec.generated(hosts, pages))) {
      String yaml = """
          crawl:
            data-dir: '%s'
            user-agent:
              name: bench-crawler
          politeness:
            default-delay: 0ms
          fetch:
            workers: %d
          scope:
            mode: same-host
            allow-private-addresses: true
          seen:
            expected-urls: 10_000_000
            false-positive-policy: %s
          output:
            warc: %s
          stats:
            interval: 5s
          """.formatted(dir.resolve("crawl"), workers, policy, warc);
      CrawlConfig config = ConfigLoader.parse(yaml, "bench", dir);
      long start = System.nanoTime();
      long pagesFetched;
      try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW, CrawlEnvironment.standard().withDns(site.dns())
          .withSeeds(site.seeds()))) {
        StopReason reason = crawl.run();
        pagesFetched = crawl.stats().pages();
        System.out.println("ended: " + reason);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long requests = site.requests().all().size();
      System.out.printf(Locale.ROOT, "hosts %d, pages/host %d, workers %d, policy %s, warc %s: %d pages (%d requests)"
          + " in %.1f s = %.0f pages/s%n", hosts, pages, workers, policy, warc, pagesFetched, requests, seconds,
          pagesFetched / seconds);
    }
  }
}
