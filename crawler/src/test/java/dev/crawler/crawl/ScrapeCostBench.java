package dev.crawler.crawl;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.status.CrawlStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a Prometheus scrape and a status page poll every second cost the crawl: crawls of the
 * generated loopback site, alternately scraped (GET /metrics and /status.json each second) and
 * not scraped (the server up, nobody asking), in the order ABBA so a drift of the machine falls
 * on both. A bench command, not a test: the figure goes in the README.
 *
 * <p>Arguments (all optional, in order): rounds of ABBA (2), hosts (100), pages per host (100),
 * workers (64).
 */
public final class ScrapeCostBench {
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int hosts = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int pages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int workers = args.length > 3 ? Integer.parseInt(args[3]) : 64;
    List<Double> scraped = new ArrayList<>();
    List<Double> quiet = new ArrayList<>();
    try (BenchSite site = BenchSite.start(hosts, pages, false)) {
      // Warm-up: one crawl left the first round's rates still climbing (the JIT is not done).
      for (int i = 0; i < 3; i++) {
        crawl(site, workers, false);
      }
      for (int round = 0; round < rounds; round++) {
        for (boolean scrape : new boolean[] {true, false, false, true}) {
          double rate = crawl(site, workers, scrape);
          (scrape ? scraped : quiet).add(rate);
          System.out.printf(Locale.ROOT, "round %d, %s: %.0f pages/s%n", round + 1, scrape ? "scraped" : "not scraped",
              rate);
        }
      }
    }
    double a = mean(scraped);
    double b = mean(quiet);
    System.out.printf(Locale.ROOT, "scraped every 1 s: %.0f pages/s (%s); not scraped: %.0f pages/s (%s); cost %.1f%%%n",
        a, scraped, b, quiet, 100 * (b - a) / b);
  }

  private static double crawl(BenchSite site, int workers, boolean scrape) throws Exception {
    Path dir = Files.createTempDirectory("scrape-bench-");
    try {
      CrawlConfig config = ConfigLoader.parse("""
          status:
            listen: 127.0.0.1:0
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
            expected-urls: 1_000_000
          output:
            warc: false
          stats:
            interval: 1s
          """.formatted(dir.resolve("crawl"), workers), "bench", dir);
      try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
          CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
        URI page = URI.create(Files.readString(dir.resolve("crawl").resolve(CrawlStatus.ADDRESS_FILE)).strip());
        Thread scraper = scrape ? Thread.ofPlatform().daemon().start(() -> scrapeEverySecond(page)) : null;
        long start = System.nanoTime();
        crawl.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (scraper != null) {
          scraper.interrupt();
        }
        return (crawl.stats().outcome(CrawlOutcome.FETCHED) + crawl.stats().outcome(CrawlOutcome.REDIRECT)) / seconds;
      }
    } finally {
      MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
    }
  }

  private static void scrapeEverySecond(URI page) {
    HttpClient http = HttpClient.newHttpClient();
    try {
      while (!Thread.currentThread().isInterrupted()) {
        http.send(HttpRequest.newBuilder(page.resolve("metrics")).build(), HttpResponse.BodyHandlers.discarding());
        http.send(HttpRequest.newBuilder(page.resolve("status.json")).build(), HttpResponse.BodyHandlers.discarding());
        Thread.sleep(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.io.IOException e) {
      System.out.println("scrape failed: " + e);
    }
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }
}
