package dev.crawler.bench.dedup;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.dedup.UrlSeenService.FalsePositivePolicy;
import dev.crawler.dedup.UrlSeenStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * URL-seen throughput on a crawl-like link stream: raw link text in, normalize +
 * fingerprint + markSeenAll per page of 50 links, with the store already holding
 * {@code preload} URLs. Of the links, 10% are new; of the 90% duplicates, 70% come from
 * a hot set (every page's navigation) and 30% from anywhere in what is stored (cold:
 * under verify, store reads). Run:
 * <pre>
 *   java -Xmx4g -cp bench/target/benchmarks.jar dev.crawler.bench.dedup.SeenThroughput 10000000 4000000 2
 * </pre>
 * Arguments: URLs preloaded, links streamed per policy, threads, and optionally the policies
 * to run ({@code accept}, {@code verify}; both by default). The service's memory knobs, for
 * trying sizes: {@code -Drecent-urls=N} (the recent-URL memory, 8 bytes a URL) and
 * {@code -Dstore-cache-mb=N} (RocksDB's block cache); the service's defaults otherwise.
 *
 * <p>{@code -Dbench.dir=DIR} keeps the store in {@code DIR/<policy>} instead of a temporary
 * folder, and a later run with the same preload reuses it instead of preloading again (10^8
 * URLs take about 7 minutes); new links then continue after the last run's.
 * {@code -Dbench.settle=true} waits, before the stream, until the store's compactions have
 * caught up with the preload (see {@code settle}).
 */
public final class SeenThroughput {
  private static final int PAGE = 50;
  private static final int HOT = 20_000;
  /** A store that has not settled in 30 minutes is measured as it is. */
  private static final long SETTLE_LIMIT_NANOS = 30L * 60 * 1_000_000_000;

  public static void main(String[] args) throws Exception {
    long preload = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    long stream = args.length > 1 ? Long.parseLong(args[1]) : 4_000_000L;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    List<FalsePositivePolicy> policies = args.length > 3
        ? List.of(FalsePositivePolicy.valueOf(args[3].toUpperCase(java.util.Locale.ROOT)))
        : List.of(FalsePositivePolicy.values());
    UrlNormalizer normalizer = new UrlNormalizer(UrlNormalizer.Options.defaults());

    System.out.printf("normalize only: %,.0f URLs/s (1 thread)%n", normalizeRate(normalizer, 2_000_000));
    for (FalsePositivePolicy policy : policies) {
      String keptDir = System.getProperty("bench.dir");
      Path dir = keptDir == null ? Files.createTempDirectory("seen-bench")
          : Files.createDirectories(Path.of(keptDir, policy.name().toLowerCase(java.util.Locale.ROOT)));
      PreloadMark mark = PreloadMark.read(dir, preload);
      UrlSeenService.Builder builder = UrlSeenService.Options.builder(dir).expectedUrls(
          (long) ((preload + stream) * 1.2)).policy(policy);
      if (System.getProperty("recent-urls") != null) {
        builder.recentUrls(Integer.parseInt(System.getProperty("recent-urls")));
      }
      if (System.getProperty("store-cache-mb") != null) {
        builder.storeCacheBytes(Long.parseLong(System.getProperty("store-cache-mb")) << 20);
      }
      UrlSeenService.Options options = builder.build();
      System.out.printf("%s: recent-URL memory %,d URLs, store block cache %,d MB%n", policy, options.recentUrls(),
          options.storeCacheBytes() >> 20);
      try (UrlSeenService seen = UrlSeenService.open(options)) {
        if (mark.done()) {
          System.out.printf("%s: reused the store of %,d preloaded URLs in %s, %,d MB on disk%n", policy, preload, dir,
              seen.storeDiskBytes() >> 20);
        } else {
          preload(seen, preload, threads, policy);
        }

        if (Boolean.getBoolean("bench.settle")) {
          settle(seen, policy);
        }
        System.out.printf("%s: store compaction backlog at the start of the stream: %,d MB%n", policy,
            seen.storeCompactionBacklog() >> 20);

        UrlSeenStats before = seen.stats();
        AtomicLong nextNew = new AtomicLong(mark.nextNewId());
        AtomicLong streamed = new AtomicLong();
        long t0 = System.nanoTime();
        run(threads, () -> {
          SplittableRandom random = new SplittableRandom(Thread.currentThread().threadId());
          List<UrlFingerprint> batch = new ArrayList<>(PAGE);
          while (streamed.getAndAdd(PAGE) < stream) {
            batch.clear();
            for (int j = 0; j < PAGE; j++) {
              long id;
              int roll = random.nextInt(100);
              if (roll < 10) {
                id = nextNew.getAndIncrement();
              } else if (roll < 73) {
                id = random.nextLong(HOT);
              } else {
                id = random.nextLong(preload);
              }
              if (normalizer.normalize(rawLink(id, random)) instanceof UrlNormalization.Accepted(String url)) {
                batch.add(UrlFingerprint.of(url));
              }
            }
            seen.markSeenAll(batch);
          }
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        UrlSeenStats after = seen.stats();
        System.out.printf("%s: %,d links in %.1f s: %,.0f URLs/s on %d threads (normalize + fingerprint + "
                + "markSeen); new %,d, recent-memory hits %,d, store reads %,d, caught false positives %,d, "
                + "est. skips %.1f%n", policy, stream, seconds, stream / seconds, threads,
            after.newUrls() - before.newUrls(), after.recentHits() - before.recentHits(),
            after.storeReads() - before.storeReads(), after.caughtFalsePositives() - before.caughtFalsePositives(),
            after.estimatedSkips() - before.estimatedSkips());
        if (keptDir != null) {
          PreloadMark.write(dir, preload, nextNew.get());
        }
      }
      if (keptDir == null) {
        deleteTree(dir);
      }
    }
  }

  /** Marks URLs 0 to {@code preload - 1} seen, in batches of 1,000, on {@code threads} threads. */
  private static void preload(UrlSeenService seen, long preload, int threads, FalsePositivePolicy policy)
      throws Exception {
    long started = System.nanoTime();
    AtomicLong nextId = new AtomicLong();
    run(threads, () -> {
      List<UrlFingerprint> batch = new ArrayList<>(1000);
      for (long id; (id = nextId.getAndAdd(1000)) < preload; ) {
        batch.clear();
        for (long i = id; i < Math.min(id + 1000, preload); i++) {
          batch.add(UrlFingerprint.of(url(i)));
        }
        seen.markSeenAll(batch);
      }
    });
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf("%s: preloaded %,d URLs in %.1f s (%,.0f/s), store %,d MB on disk%n", policy, preload,
        seconds, preload / seconds, seen.storeDiskBytes() >> 20);
  }

  /** What a kept store holds: URLs 0 to preload - 1, and new links up to (not including) nextNewId. */
  private record PreloadMark(boolean done, long nextNewId) {
    private static final String FILE = "bench-preloaded";

    static PreloadMark read(Path dir, long preload) throws java.io.IOException {
      Path file = dir.resolve(FILE);
      if (Files.exists(file)) {
        String[] fields = Files.readString(file).trim().split(" ");
        if (Long.parseLong(fields[0]) != preload) {
          throw new IllegalArgumentException(dir + " holds a store of " + fields[0] + " preloaded URLs, not " + preload
              + "; give another -Dbench.dir");
        }
        return new PreloadMark(true, Long.parseLong(fields[1]));
      }
      return new PreloadMark(false, preload);
    }

    static void write(Path dir, long preload, long nextNewId) throws java.io.IOException {
      Files.writeString(dir.resolve(FILE), preload + " " + nextNewId + "\n");
    }
  }

  /**
   * Waits until the store's compactions have worked off what the preload left: a preload of 10^8
   * URLs writes far faster than a crawl does, and the compactions it leaves behind take the CPU
   * the stream would use.
   */
  private static void settle(UrlSeenService seen, FalsePositivePolicy policy) throws InterruptedException {
    long t0 = System.nanoTime();
    long backlog = seen.storeCompactionBacklog();
    System.out.printf("%s: settling: compaction backlog %,d MB%n", policy, backlog >> 20);
    while (seen.storeCompactionBacklog() > 0 && System.nanoTime() - t0 < SETTLE_LIMIT_NANOS) {
      Thread.sleep(1_000);
    }
    System.out.printf("%s: settled in %.0f s%n", policy, (System.nanoTime() - t0) / 1e9);
  }

  /** The normalized form of URL {@code id}. */
  static String url(long id) {
    return "https://www.site" + (id % 5_000) + ".example.com/section-" + (id % 37) + "/articles/page-" + id + ".html";
  }

  /** URL {@code id} as links write it: mixed case host, a fragment, sometimes a tracking parameter. */
  static String rawLink(long id, SplittableRandom random) {
    String url = url(id);
    return switch (random.nextInt(4)) {
      case 0 -> url.replace("https://www.", "HTTPS://WWW.");
      case 1 -> url + "#comments";
      case 2 -> url + "?utm_source=feed";
      default -> url;
    };
  }

  private static double normalizeRate(UrlNormalizer normalizer, int count) {
    SplittableRandom random = new SplittableRandom(1);
    long sink = 0;
    for (int i = 0; i < count / 4; i++) {   // warm up
      sink += normalizer.normalize(rawLink(i, random)).hashCode();
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < count; i++) {
      sink += normalizer.normalize(rawLink(i, random)).hashCode();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (sink == 42) {
      System.out.print("");
    }
    return count / seconds;
  }

  private static void run(int threads, ThrowingRunnable task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        task.run();
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
