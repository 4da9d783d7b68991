package dev.crawler.frontier;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The frontier's benchmark: offer throughput in batches of 1,000, next+complete throughput
 * with no delay, and heap and disk per URL once N URLs are queued. Prints one line per
 * figure, "name value", so a test can read them. Run (see the module README):
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -Xmx256m -cp ... dev.crawler.frontier.FrontierBench \
 *     --urls 10000000 --hosts 100000 --ops 1000000 --threads 2 --dir /tmp/frontier-bench
 * </pre>
 * The folder is emptied first.
 */
public final class FrontierBench {
  private FrontierBench() {}

  public static void main(String[] args) throws Exception {
    long urls = 1_000_000;
    int hosts = 100_000;
    long ops = 200_000;
    long warmupOps = 0;
    int threads = 2;
    int batch = 1_000;
    boolean vias = false;
    FrontierOptions.Builder tuning = FrontierOptions.builder().defaultDelay(Duration.ZERO);
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "frontier-bench");
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--urls" -> urls = Long.parseLong(args[i + 1]);
        case "--hosts" -> hosts = Integer.parseInt(args[i + 1]);
        case "--ops" -> ops = Long.parseLong(args[i + 1]);
        case "--warmup-ops" -> warmupOps = Long.parseLong(args[i + 1]);
        case "--threads" -> threads = Integer.parseInt(args[i + 1]);
        case "--batch" -> batch = Integer.parseInt(args[i + 1]);
        case "--via" -> vias = Boolean.parseBoolean(args[i + 1]);
        case "--dir" -> dir = Path.of(args[i + 1]);
        case "--partitions" -> tuning.partitions(Integer.parseInt(args[i + 1]));
        case "--working-set" -> tuning.workingSetHosts(Integer.parseInt(args[i + 1]));
        case "--cache-mb" -> tuning.blockCacheBytes(Long.parseLong(args[i + 1]) << 20);
        case "--memtable-mb" -> tuning.memtableBytes(Long.parseLong(args[i + 1]) << 20);
        case "--read-ahead-mb" -> tuning.readAheadBytes(Long.parseLong(args[i + 1]) << 20);
        case "--known-hosts" -> tuning.knownHostsCache(Integer.parseInt(args[i + 1]));
        case "--deferred-completions" -> tuning.deferredCompletions(Integer.parseInt(args[i + 1]));
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; allowed: --urls --hosts --ops --warmup-ops --threads --batch --via --dir --working-set --cache-mb --memtable-mb --read-ahead-mb --known-hosts --partitions --deferred-completions");
      }
    }
    deleteRecursively(dir);
    print("available_processors", Runtime.getRuntime().availableProcessors());
    print("heap_max_mb", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax() >> 20);
    FrontierOptions options = tuning.build();
    System.out.println("options " + options);
    print("vias", vias ? 1 : 0);
    try (Frontier frontier = Frontier.open(dir, options)) {
      long start = System.nanoTime();
      long peakHeap = 0;
      List<FrontierEntry> entries = new ArrayList<>(batch);
      for (long i = 0; i < urls; i++) {
        // Every host gets urls/hosts URLs, in a scattered order: 1,000,003 is a prime, so
        // multiplying by it permutes the residues mod hosts.
        int host = (int) ((i * 1_000_003L) % hosts);
        FrontierEntry entry = FrontierEntry.of("https://www.host" + host + ".example.com/section/" + (i % 97)
            + "/page-" + i + ".html", "www.host" + host + ".example.com", 1 + (int) (i % 5));
        if (vias) {
          // As a crawl offers them: the page that linked here, as long as a URL; one in ten a redirect.
          int from = (int) ((i * 7) % hosts);
          entry = entry.withVia("https://www.host" + from + ".example.com/section/" + (i % 89) + "/page-" + i / 3
              + ".html").withRedirectHops(i % 10 == 0 ? 1 : 0);
        }
        entries.add(entry);
        if (entries.size() == batch || i == urls - 1) {
          frontier.offer(entries);
          entries = new ArrayList<>(batch);
        }
        if (i % 1_000_000 == 999_999) {
          long heap = heapUsedAfterGc();
          peakHeap = Math.max(peakHeap, heap);
          System.out.printf(Locale.ROOT, "progress offered=%d heap_used_mb=%d elapsed_s=%.1f%n", i + 1, heap >> 20,
              (System.nanoTime() - start) / 1e9);
        }
      }
      double offerSeconds = (System.nanoTime() - start) / 1e9;
      print("offered_urls", urls);
      print("offer_urls_per_s", Math.round(urls / offerSeconds));
      FrontierStats stats = frontier.stats();
      print("queued_urls", stats.queuedUrls());
      print("hosts", stats.hosts());
      long heap = heapUsedAfterGc();
      peakHeap = Math.max(peakHeap, heap);
      print("heap_used_after_offers_mb", heap >> 20);
      frontier.flush();
      print("sst_bytes_per_url", frontier.diskBytes() / Math.max(1, stats.queuedUrls()));
      print("dir_bytes_per_url", directoryBytes(dir) / Math.max(1, stats.queuedUrls()));

      print("pending_compaction_mb", frontier.storeProperty("rocksdb.estimate-pending-compaction-bytes") >> 20);
      if (Boolean.getBoolean("bench.settle")) {
        while (frontier.storeProperty("rocksdb.estimate-pending-compaction-bytes") > 0
            || frontier.storeProperty("rocksdb.num-running-compactions") > 0) {
          Thread.sleep(500);
        }
        print("settled_pending_compaction_mb", 0);
      }
      if (warmupOps > 0) {
        // The JIT compiles next and complete during their first seconds, on the same 2 cores: a
        // short measured phase would count that too, which a crawl running for hours does not pay.
        long warmupStart = System.nanoTime();
        long warmed = fetch(frontier, threads, warmupOps);
        print("warmup_ops", warmed);
        print("warmup_per_s", Math.round(warmed / ((System.nanoTime() - warmupStart) / 1e9)));
      }
      long writesBefore = frontier.storeWrites();
      long iteratorsBefore = frontier.storeIterators();
      long seeksBefore = frontier.storeSeeks();
      start = System.nanoTime();
      long cpuStart = processCpuNanos();
      long done = fetch(frontier, threads, ops);
      double fetchSeconds = (System.nanoTime() - start) / 1e9;
      print("next_complete_ops", done);
      print("next_complete_per_s", Math.round(done / fetchSeconds));
      // CPU of the whole process (RocksDB's compactions too) per operation: steadier than the
      // rate on a machine shared with other work.
      print("next_complete_cpu_ns_per_op", (processCpuNanos() - cpuStart) / Math.max(1, done));
      // Per 1,000 operations: database writes (fewer than 1,000 when completions are grouped)
      // iterators opened (queue reads and schedule refills) and seeks (hosts whose queue was read).
      print("writes_per_1000_ops", (frontier.storeWrites() - writesBefore) * 1000 / Math.max(1, done));
      print("iterators_per_1000_ops", (frontier.storeIterators() - iteratorsBefore) * 1000 / Math.max(1, done));
      print("seeks_per_1000_ops", (frontier.storeSeeks() - seeksBefore) * 1000 / Math.max(1, done));
      print("delayed_write_rate", frontier.storeProperty("rocksdb.actual-delayed-write-rate"));
      print("pending_compaction_after_mb",
          frontier.storeProperty("rocksdb.estimate-pending-compaction-bytes") >> 20);
      heap = heapUsedAfterGc();
      peakHeap = Math.max(peakHeap, heap);
      print("heap_used_after_fetches_mb", heap >> 20);
      print("heap_used_peak_mb", peakHeap >> 20);
      print("queued_urls_at_end", frontier.stats().queuedUrls());
    }
    System.out.println("done");
  }

  /** Runs {@code ops} next+complete operations over {@code threads} threads; returns how many were done. */
  private static long fetch(Frontier frontier, int threads, long ops) throws InterruptedException {
    long perThread = ops / threads;
    AtomicLong done = new AtomicLong();
    List<Thread> fetchers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread fetcher = new Thread(() -> {
        try {
          for (long n = 0; n < perThread; n++) {
            Optional<Lease> lease = frontier.next(Duration.ofSeconds(5));
            if (lease.isEmpty()) {
              return;
            }
            frontier.complete(lease.get(), FetchOutcome.FETCHED);
            done.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "fetcher-" + t);
      fetchers.add(fetcher);
      fetcher.start();
    }
    for (Thread fetcher : fetchers) {
      fetcher.join();
    }
    return done.get();
  }

  private static void print(String name, long value) {
    System.out.println(name + " " + value);
  }

  /** CPU time of the whole process (RocksDB's threads too), for CPU per operation. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long heapUsedAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static long directoryBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
