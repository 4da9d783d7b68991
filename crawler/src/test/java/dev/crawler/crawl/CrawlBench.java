package dev.crawler.crawl;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.parse.PageParser;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.record.CrawlOutcome;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Crawl throughput, end to end, against the generated site on loopback with no politeness
 * delay: pages per second with every stage on (robots, parse, normalize, scope, URL-seen,
 * frontier, WARC, crawl log), the CPU it took, the process's peak RSS, and, in the same run,
 * the parse-only rate of the same pages without network. A bench command, not a test: the
 * figures go in crawler/README.md.
 *
 * <p>Arguments (all optional, in order): hosts (500), pages per host (100), workers (64),
 * seen policy (verify), warc (true), parse threads (2), WARC gzip level (3), and {@code site-process} to
 * serve the site from a child JVM (by default it runs in this process, and its CPU and memory
 * are in the figures too).
 */
public final class CrawlBench {
  private static final int PARSE_SAMPLE = 2_000;

  public static void main(String[] args) throws Exception {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    int pages = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int workers = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    String policy = args.length > 3 ? args[3] : "verify";
    boolean warc = args.length <= 4 || Boolean.parseBoolean(args[4]);
    int parseThreads = args.length > 5 ? Integer.parseInt(args[5]) : 2;
    int gzipLevel = args.length > 6 ? Integer.parseInt(args[6]) : 3;
    boolean siteProcess = args.length > 7 && args[7].equals("site-process");
    // fetch.max-connections; the config's default (256) unless -Dbench.max-connections says otherwise.
    int maxConnections = Integer.getInteger("bench.max-connections", 256);
    Path dir = Files.createTempDirectory("crawl-bench-");
    try (BenchSite site = BenchSite.start(hosts, pages, siteProcess)) {
      CrawlConfig config = ConfigLoader.parse("""
          status:
            listen: 127.0.0.1:0   # any free port: test crawls run side by side
          crawl:
            data-dir: '%s'
            user-agent:
              name: bench-crawler
          politeness:
            default-delay: 0ms
          fetch:
            workers: %d
            max-connections: %d
          scope:
            mode: same-host
            allow-private-addresses: true
          seen:
            expected-urls: 10_000_000
            false-positive-policy: %s
          output:
            warc: %s
            warc-compression-level: %d
          stats:
            interval: 10s
          """.formatted(dir.resolve("crawl"), workers, maxConnections, policy, warc, gzipLevel), "bench", dir);
      long cpuBefore = processCpuNanos();
      double siteCpuBefore = site.cpuSeconds();
      long start = System.nanoTime();
      long fetched;
      StopReason reason;
      try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
          CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
        reason = crawl.run();
        fetched = crawl.stats().outcome(CrawlOutcome.FETCHED) + crawl.stats().outcome(CrawlOutcome.REDIRECT);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpuSeconds = (processCpuNanos() - cpuBefore) / 1e9;
      double siteCpuSeconds = site.cpuSeconds() - siteCpuBefore;
      double crawlRate = fetched / seconds;
      System.out.printf(Locale.ROOT, "crawl: %d hosts x %d pages, %d workers, policy %s, warc %s (level %d), site %s: %s,"
              + " %,d pages in %.1f s = %.0f pages/s; CPU %.1f s (%.2f cores); peak RSS %d MB%n", hosts, pages, workers,
          policy, warc, gzipLevel, siteProcess ? "in its own process" : "in this process", reason, fetched, seconds,
          crawlRate, cpuSeconds, cpuSeconds / seconds, peakRssMegabytes());
      if (warc) {
        // What the gzip level costs on disk, beside what it costs in CPU.
        long warcBytes = warcBytes(dir.resolve("crawl"));
        System.out.printf(Locale.ROOT, "warc: %,d MB, %.1f KB a fetch%n", warcBytes >> 20, warcBytes / 1024.0 / fetched);
      }
      if (siteProcess) {
        // The crawler's own CPU a page, and the rate 2 cores would give the crawler alone.
        double msPerPage = 1000 * cpuSeconds / fetched;
        System.out.printf(Locale.ROOT, "site process: CPU %.1f s (%.2f cores); crawler alone: %.2f ms CPU a page,"
            + " %.0f pages/s on 2 cores at that cost%n", siteCpuSeconds, siteCpuSeconds / seconds, msPerPage,
            2000 / msPerPage);
      }

      List<byte[]> bodies = samplePages(dir.resolve("crawl/crawl.log"), site);
      double parseRate = parseRate(bodies, parseThreads);
      System.out.printf(Locale.ROOT, "parse only: %,d of the same pages, %d threads: %.0f pages/s; crawl/parse = %.0f%%%n",
          bodies.size(), parseThreads, parseRate, 100 * crawlRate / parseRate);
    } finally {
      // A run writes a few hundred MB of WARC; -Dbench.keep=true keeps them to look at.
      if (!Boolean.getBoolean("bench.keep")) {
        MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
      } else {
        System.out.println("kept: " + dir);
      }
    }
  }

  private static long warcBytes(Path crawlDir) throws IOException {
    try (var files = Files.walk(crawlDir)) {
      long total = 0;
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".warc.gz"))::iterator) {
        total += Files.size(file);
      }
      return total;
    }
  }

  /** Some HTML pages the crawl fetched, fetched again into memory, so parsing them needs no network. */
  private static List<byte[]> samplePages(Path crawlLog, BenchSite site) throws Exception {
    List<String> urls = CrawlLogReader.readAll(crawlLog).stream()
        .filter(e -> e.outcome() == CrawlOutcome.FETCHED && "text/html".equals(e.contentType()) && e.httpStatus() == 200)
        .map(CrawlLogEntry::url).limit(PARSE_SAMPLE).toList();
    OkHttpClient client = new OkHttpClient.Builder().dns(site.dns()).build();
    List<byte[]> bodies = new ArrayList<>();
    for (String url : urls) {
      try (Response response = client.newCall(new Request.Builder().url(url).build()).execute()) {
        bodies.add(response.body().bytes());
      }
    }
    client.connectionPool().evictAll();
    return bodies;
  }

  /** Pages/s of PageParser alone over the sample, after a warm-up round, in {@code threads} threads. */
  private static double parseRate(List<byte[]> bodies, int threads) throws InterruptedException {
    PageParser parser = new PageParser(true, CrawlSetup.MAX_LINKS_PER_PAGE);
    int rounds = 10;
    AtomicLong links = new AtomicLong();
    for (int i = 0; i < bodies.size(); i++) {
      links.addAndGet(parser.parse("http://bench.example.com/", bodies.get(i), StandardCharsets.UTF_8).links().size());
    }
    long start = System.nanoTime();
    List<Thread> pool = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      pool.add(Thread.ofPlatform().start(() -> {
        for (int r = 0; r < rounds; r++) {
          for (int i = first; i < bodies.size(); i += threads) {
            links.addAndGet(parser.parse("http://bench.example.com/", bodies.get(i), StandardCharsets.UTF_8).links().size());
          }
        }
      }));
    }
    for (Thread t : pool) {
      t.join();
    }
    return (double) rounds * bodies.size() / ((System.nanoTime() - start) / 1e9);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** VmHWM: the most resident memory the process has had (Linux). */
  private static long peakRssMegabytes() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return -1;
  }
}
