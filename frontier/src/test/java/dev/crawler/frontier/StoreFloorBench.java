package dev.crawler.frontier;

import dev.crawler.frontier.internal.FrontierStore;
import dev.crawler.frontier.internal.HostKeys;
import dev.crawler.frontier.internal.HostState;
import dev.crawler.frontier.internal.PartitionCounters;
import dev.crawler.frontier.internal.QueuedUrl;
import dev.crawler.frontier.internal.ScheduleKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor under {@link FrontierBench}: the writes the frontier makes, with its own store
 * (same RocksDB options, a database and a group commit per partition group), and nothing else:
 * no reads, no schedule, no locks of the frontier's. What it measures is what this machine's
 * RocksDB allows, so the frontier's figures can be read as a fraction of it.
 * <ul>
 *   <li>offer: the same URLs as {@code FrontierBench} in batches of 1,000, each batch one write
 *       a group: a queue entry a URL, and for a host's first URL its state and schedule row;
 *   <li>complete: each operation one write of what a durable {@code complete(FETCHED)} of a
 *       host without failures writes (the queue entry removed, the host's schedule row moved,
 *       the partition's counters: 4 records; its state is written only when its failures
 *       change), awaited before the next. Thread t serves groups t, t + threads, ... in turn,
 *       so no two threads share a group (with fewer groups than threads, they do).
 * </ul>
 * A frontier that lets completions share a write ({@code deferredCompletions}) can beat the
 * completion floor; this one writes once an operation, as a durable completion does.
 * Run from {@code frontier/} (classpath as for {@code FrontierBench}):
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -Xmx1g -cp target/test-classes:target/classes:$(cat target/bench.classpath) \
 *     dev.crawler.frontier.StoreFloorBench 1000000 100000 4 2 400000 /tmp/floor-store
 * </pre>
 * Arguments: URLs, hosts, partitions, threads, completions, folder (deleted first).
 */
public final class StoreFloorBench {
  private static final byte[] SCHEDULE_VALUE = {1};

  public static void main(String[] args) throws Exception {
    long urls = Long.parseLong(args[0]);
    int hosts = Integer.parseInt(args[1]);
    int partitions = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    long completions = Long.parseLong(args[4]);
    Path dir = Path.of(args[5]);
    FrontierBench.deleteRecursively(dir);
    int groups = Math.min(partitions, 16);
    FrontierOptions defaults = FrontierOptions.builder().build();
    try (FrontierStore root = FrontierStore.open(dir, defaults.sync() == SyncPolicy.FSYNC,
        defaults.blockCacheBytes(), defaults.memtableBytes(), partitions, groups)) {
      List<FrontierStore> stores = root.openGroups(partitions);
      try {
        run(stores, urls, hosts, partitions, threads, completions);
      } finally {
        for (int g = stores.size() - 1; g >= 0; g--) {
          stores.get(g).close();
        }
      }
    }
    FrontierBench.deleteRecursively(dir);
  }

  private static void run(List<FrontierStore> stores, long urls, int hosts, int partitions, int threads,
      long completions) throws InterruptedException {
    int groups = stores.size();
    byte[][] hostUtf8 = new byte[hosts][];
    int[] partitionOf = new int[hosts];
    for (int h = 0; h < hosts; h++) {
      hostUtf8[h] = ("www.host" + h + ".example.com").getBytes(StandardCharsets.UTF_8);
      partitionOf[h] = HostKeys.partition(hostUtf8[h], partitions);
    }
    // The keys each group will complete, in the order offered (enough for the completions asked).
    List<List<byte[]>> toComplete = new ArrayList<>();
    List<List<Integer>> hostOfKey = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      toComplete.add(new ArrayList<>());
      hostOfKey.add(new ArrayList<>());
    }
    boolean[] seen = new boolean[hosts];
    PartitionCounters[] counters = new PartitionCounters[partitions];
    for (int p = 0; p < partitions; p++) {
      counters[p] = new PartitionCounters(p);
    }
    long now = System.currentTimeMillis();
    // Each host's schedule row is keyed by its next allowed time: the time of its row on disk,
    // so a completion deletes the row that is there (racy only when threads share a group).
    long[] scheduledAt = new long[hosts];
    java.util.Arrays.fill(scheduledAt, now);
    long seq = 0;
    long cpuStart = FrontierBench.processCpuNanos();
    long start = System.nanoTime();
    for (long first = 0; first < urls; first += 1_000) {
      List<List<byte[][]>> perGroup = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        perGroup.add(new ArrayList<>());
      }
      for (long i = first; i < Math.min(urls, first + 1_000); i++) {
        int host = (int) ((i * 1_000_003L) % hosts);
        int partition = partitionOf[host];
        int group = partition % groups;
        byte[] key = QueuedUrl.key(partition, hostUtf8[host], 0, ++seq);
        String url = "https://www.host" + host + ".example.com/section/" + (i % 97) + "/page-" + i + ".html";
        perGroup.get(group).add(new byte[][] {key, QueuedUrl.value(url, 1 + (int) (i % 5), 0, null)});
        if (!seen[host]) {
          seen[host] = true;
          perGroup.get(group).add(new byte[][] {HostState.key(partition, hostUtf8[host]),
              HostState.NEW.withActive(true, now).encode(), ScheduleKey.encode(partition, now, hostUtf8[host])});
        }
        counters[partition].queued++;
        if (toComplete.get(group).size() < completions) {
          toComplete.get(group).add(key);
          hostOfKey.get(group).add(host);
        }
      }
      for (int g = 0; g < groups; g++) {
        List<byte[][]> writes = perGroup.get(g);
        if (writes.isEmpty()) {
          continue;
        }
        FrontierStore store = stores.get(g);
        List<byte[][]> counterWrites = new ArrayList<>();
        for (int p = g; p < partitions; p += groups) {
          counterWrites.add(new byte[][] {counters[p].key(), counters[p].encode()});
        }
        store.awaitWritten(store.stage(batch -> {
          for (byte[][] w : writes) {
            if (w.length == 2) {
              batch.put(store.queue, w[0], w[1]);
            } else {
              batch.put(store.hosts, w[0], w[1]);
              batch.put(store.schedule, w[2], SCHEDULE_VALUE);
            }
          }
          for (byte[][] c : counterWrites) {
            batch.put(store.counters, c[0], c[1]);
          }
        }));
      }
    }
    double offerSeconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "offer_urls_per_s %d%noffer_cpu_ns_per_url %d%n", Math.round(urls / offerSeconds),
        (FrontierBench.processCpuNanos() - cpuStart) / urls);

    AtomicLong done = new AtomicLong();
    AtomicIntegerArray next = new AtomicIntegerArray(groups);
    long perThread = completions / threads;
    List<Thread> workers = new ArrayList<>();
    cpuStart = FrontierBench.processCpuNanos();
    start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker = new Thread(() -> {
        // Thread t completes the keys of groups t, t + threads, ... in turn (with fewer groups
        // than threads, threads share a group, as the frontier's fetchers then do).
        List<Integer> own = new ArrayList<>();
        for (int g = thread % groups; g < groups; g += threads) {
          own.add(g);
        }
        long step = 0;
        for (long n = 0; n < perThread && !own.isEmpty(); n++) {
          int slot = (int) (step++ % own.size());
          int group = own.get(slot);
          int index = next.getAndIncrement(group);
          if (index >= toComplete.get(group).size()) {
            own.remove(slot);   // this group is done; the thread goes on with its others
            n--;
            continue;
          }
          byte[] key = toComplete.get(group).get(index);
          int host = hostOfKey.get(group).get(index);
          int partition = partitionOf[host];
          long at = Math.max(System.currentTimeMillis(), scheduledAt[host] + 1);
          byte[] oldRow = ScheduleKey.encode(partition, scheduledAt[host], hostUtf8[host]);
          byte[] newRow = ScheduleKey.encode(partition, at, hostUtf8[host]);
          scheduledAt[host] = at;
          PartitionCounters c = counters[partition];
          byte[] counterValue;
          synchronized (c) {
            c.queued--;
            c.fetched++;
            counterValue = c.encode();
          }
          FrontierStore store = stores.get(group);
          store.awaitWritten(store.stage(batch -> {
            batch.singleDelete(store.queue, key);
            batch.delete(store.schedule, oldRow);
            batch.put(store.schedule, newRow, SCHEDULE_VALUE);
            batch.put(store.counters, c.key(), counterValue);
          }));
          done.incrementAndGet();
        }
      }, "completer-" + t);
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "complete_ops %d%ncomplete_per_s %d%ncomplete_cpu_ns_per_op %d%n", done.get(),
        Math.round(done.get() / seconds), (FrontierBench.processCpuNanos() - cpuStart) / Math.max(1, done.get()));
  }
}
