package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle test's model pushed to the corners: working sets of 1 to 3 hosts, known-host caches
 * of 0 to 100, read-ahead budgets of 0 to 64 MB, partitions 1, 2, 4, 17 and 33, connection limits
 * changed while leases are out, clearCrawlDelay, DEFERRED, Retry-After of zero and of more millis
 * than a long holds, duplicate URLs, host keys that are prefixes of each other or not ASCII, URLs
 * of 10 KB, and completions of leases already completed or from before a reopen. It found three
 * bugs (a due host left on disk by a refill, a completed lease accepted again, an unpaired
 * surrogate in a host key) and a politeness rule (a Retry-After undone by a concurrent fetch).
 * Seeds from -Dfuzz.from (1) to -Dfuzz.to (12), -Dfuzz.ops operations each (1,500); -Dfuzz.trace=true
 * prints the operations before a "ready but not served" failure.
 */
class FrontierFuzzTest {
  static final String LONG_HOST = "h".repeat(300) + ".example";
  static final String[] HOSTS = {"a.com", "a.com.b", "a.co", "b.org", "bücher.de", "例え.jp", LONG_HOST,
      "a.com\u0001", "𝄞.io", "z"};
  static final int[] PRIORITIES = {0, 0, 0, 0, 7, -3, 127, -128};

  @TempDir Path dir;

  record Entry(long id, String url, String via, int hops) {}

  static final class ModelHost {
    final String key;
    final TreeMap<long[], Entry> queued = new TreeMap<>(
        Comparator.<long[]>comparingLong(e -> -e[0]).thenComparingLong(e -> e[1]));
    final Set<Long> leased = new HashSet<>();
    long lo;
    long hi;
    int failures;
    long crawlDelay = -1;
    int limit = 1;

    ModelHost(String key) {
      this.key = key;
    }

    Entry firstUnleased() {
      for (Entry e : queued.values()) {
        if (!leased.contains(e.id)) {
          return e;
        }
      }
      return null;
    }

    boolean eligible(long now) {
      return firstUnleased() != null && leased.size() < limit && lo <= now;
    }
  }

  static Stream<Arguments> seeds() {
    long from = Long.getLong("fuzz.from", 1);
    long to = Long.getLong("fuzz.to", 12);
    return java.util.stream.LongStream.rangeClosed(from, to).mapToObj(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void fuzz(long seed) throws Exception {
    run(seed, Integer.getInteger("fuzz.ops", 1_500), true);
  }

  void run(long seed, int operations, boolean checkStale) throws Exception {
    Random random = new Random(seed);
    int[] partitionChoices = {1, 1, 2, 4, 17, 33};
    int partitions = partitionChoices[random.nextInt(partitionChoices.length)];
    int workingSet = 1 + random.nextInt(3);
    int[] cacheChoices = {0, 1, 2, HOSTS.length, 100};
    int cache = cacheChoices[random.nextInt(cacheChoices.length)];
    long[] readAheadChoices = {0, 300, 2_000, 64 << 20};
    long readAhead = readAheadChoices[random.nextInt(readAheadChoices.length)];
    int hostCount = 2 + random.nextInt(HOSTS.length - 1);
    String[] hosts = java.util.Arrays.copyOf(HOSTS, hostCount);
    String params = "seed " + seed + " partitions " + partitions + " ws " + workingSet + " cache " + cache
        + " readAhead " + readAhead + " hosts " + hostCount;
    ManualClock clock = new ManualClock(10_000_000);
    long defaultDelay = random.nextBoolean() ? 100 : 0;
    long maxCrawlDelay = 5_000;
    long maxRetryAfter = 2_000;
    int suspendAfter = 3;
    long suspendFor = 3_600_000;
    FrontierOptions options = FrontierOptions.builder().clock(clock)
        .defaultDelay(Duration.ofMillis(defaultDelay)).maxCrawlDelay(Duration.ofMillis(maxCrawlDelay))
        .maxRetryAfter(Duration.ofMillis(maxRetryAfter)).backoffInitial(Duration.ZERO).backoffMax(Duration.ZERO)
        .suspendAfter(suspendAfter).suspendFor(Duration.ofMillis(suspendFor))
        .workingSetHosts(workingSet).knownHostsCache(cache).readAheadBytes(readAhead).partitions(partitions).build();

    Map<String, ModelHost> model = new HashMap<>();
    for (String h : hosts) {
      model.put(h, new ModelHost(h));
    }
    List<Lease> outstanding = new ArrayList<>();
    Map<Lease, Long> leaseIds = new HashMap<>();
    List<Lease> completed = new ArrayList<>();
    List<Lease> beforeReopen = new ArrayList<>();
    long arrival = 0;
    int urlId = 0;
    long fetched = 0;
    long retried = 0;
    long failed = 0;

    Path store = Files.createTempDirectory(dir, "s");
    List<String> log = new ArrayList<>();
    boolean trace = Boolean.getBoolean("fuzz.trace");
    Frontier f = Frontier.open(store, options);
    try {
      for (int op = 0; op < operations; op++) {
        long now = clock.millis();
        int dice = random.nextInt(100);
        String context = params + " op " + op;
        Frontier fr = f;
        if (dice < 25) {
          List<FrontierEntry> batch = new ArrayList<>();
          int n = 1 + random.nextInt(5);
          for (int i = 0; i < n; i++) {
            String host = hosts[random.nextInt(hosts.length)];
            int priority = PRIORITIES[random.nextInt(PRIORITIES.length)];
            String url;
            if (urlId > 0 && random.nextInt(8) == 0) {
              url = "https://" + host + "/dup" + random.nextInt(3);   // duplicates: both must come out
            } else if (random.nextInt(30) == 0) {
              url = "https://" + host + "/" + "p".repeat(5_000 + random.nextInt(5_000)) + urlId++;
            } else {
              url = "https://" + host + "/" + urlId++;
            }
            String via = FrontierOracleTest.randomVia(random);
            int hops = random.nextInt(4) == 0 ? random.nextInt(256) : 0;
            batch.add(new FrontierEntry(url, host, random.nextInt(5), priority).withVia(via).withRedirectHops(hops));
            ModelHost m = model.get(host);
            if (m.queued.isEmpty() && m.leased.isEmpty()) {
              m.hi = Math.max(now, m.hi);
            }
            long id = arrival++;
            m.queued.put(new long[] {priority, id}, new Entry(id, url, FrontierOracleTest.storedVia(via), hops));
          }
          if (trace) {
            for (FrontierEntry e : batch) log.add("op " + op + " t " + now + " offer " + e.hostKey() + " " + e.url().substring(0, Math.min(40, e.url().length())) + " prio " + e.priority());
          }
          f.offer(batch);
        } else if (dice < 55) {
          Optional<Lease> lease = f.next(Duration.ZERO);
          int leasedGroup = lease.map(l -> FrontierOracleTest.group(l.hostKey(), partitions)).orElse(-1);
          ModelHost earliest = null;
          for (ModelHost m : model.values()) {
            if (m.eligible(now) && FrontierOracleTest.group(m.key, partitions) == leasedGroup
                && (earliest == null || m.hi < earliest.hi)) {
              earliest = m;
            }
          }
          if (trace) log.add("op " + op + " t " + now + " next -> " + lease.map(l -> l.hostKey() + " " + l.url()).orElse("none"));
          if (lease.isEmpty()) {
            for (ModelHost m : model.values()) {
              if (trace && m.eligible(now) && m.hi <= now) {
                log.forEach(System.out::println);
                System.out.println("model " + m.key + " lo " + m.lo + " hi " + m.hi + " leased " + m.leased + " limit "
                    + m.limit + " queued " + m.queued.size() + " crawlDelay " + m.crawlDelay);
              }
              assertThat(m.eligible(now) && m.hi <= now).as("%s: %s is ready but next() gave nothing", context, m.key)
                  .isFalse();
            }
          } else {
            Lease l = lease.get();
            ModelHost m = model.get(l.hostKey());
            assertThat(m).as("%s: unknown host %s", context, l.hostKey()).isNotNull();
            assertThat(m.eligible(now)).as("%s: %s handed out but not allowed (lo %s, now %s, leased %s/%s)", context,
                m.key, m.lo, now, m.leased.size(), m.limit).isTrue();
            Entry head = m.firstUnleased();
            assertThat(l.url()).as("%s: head of %s", context, m.key).isEqualTo(head.url);
            assertThat(List.of(String.valueOf(l.via()), l.redirectHops())).as("%s: via/hops of %s", context, l.url())
                .isEqualTo(List.of(String.valueOf(head.via), head.hops));
            assertThat(m.lo).as("%s: %s is not the earliest ready host", context, m.key)
                .isLessThanOrEqualTo(earliest.hi);
            m.leased.add(head.id);
            leaseIds.put(l, head.id);
            outstanding.add(l);
          }
        } else if (dice < 80) {
          if (checkStale && !completed.isEmpty() && random.nextInt(10) == 0) {
            Lease stale = completed.get(random.nextInt(completed.size()));
            assertThatThrownBy(() -> fr.complete(stale, FetchOutcome.FETCHED)).as("%s: stale %s", context, stale)
                .isInstanceOf(IllegalArgumentException.class);
            continue;
          }
          if (!beforeReopen.isEmpty() && random.nextInt(10) == 0) {
            Lease old = beforeReopen.get(random.nextInt(beforeReopen.size()));
            assertThatThrownBy(() -> fr.complete(old, FetchOutcome.FETCHED)).as("%s: pre-reopen %s", context, old)
                .isInstanceOf(IllegalArgumentException.class);
            continue;
          }
          if (outstanding.isEmpty()) {
            continue;
          }
          Lease l = outstanding.remove(random.nextInt(outstanding.size()));
          long id = leaseIds.remove(l);
          ModelHost m = model.get(l.hostKey());
          long delay = m.crawlDelay < 0 ? defaultDelay : Math.max(defaultDelay, Math.min(m.crawlDelay, maxCrawlDelay));
          int kind = random.nextInt(12);
          FetchOutcome outcome;
          long next;
          boolean keep = false;
          if (kind < 5) {
            outcome = FetchOutcome.FETCHED;
            m.failures = 0;
            next = now + delay;
            fetched++;
          } else if (kind < 7) {
            int r = random.nextInt(4);
            Duration ra = r == 0 ? Duration.ZERO : r == 1 ? Duration.ofSeconds(Long.MAX_VALUE)
                : r == 2 ? Duration.ofDays(100_000) : Duration.ofMillis(random.nextInt(5_000));
            outcome = FetchOutcome.retryAfter(ra);
            m.failures++;
            long raMillis = ra.compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : ra.toMillis();
            long wait = Math.max(delay, Math.min(raMillis, maxRetryAfter));
            next = now + (m.failures >= suspendAfter ? Math.max(wait, suspendFor) : wait);
            retried++;
            keep = true;
          } else if (kind == 7) {
            outcome = FetchOutcome.FAILED;
            m.failures++;
            next = now + (m.failures >= suspendAfter ? Math.max(delay, suspendFor) : delay);
            failed++;
          } else if (kind < 10) {
            outcome = FetchOutcome.DEFERRED;
            next = now + delay;
            keep = true;
          } else {
            outcome = FetchOutcome.SKIPPED;
            next = -1;
            fetched++;
          }
          if (trace) log.add("op " + op + " t " + now + " complete " + l.hostKey() + " " + l.url() + " " + outcome.kind() + " " + outcome.retryAfter() + " -> next " + next);
          f.complete(l, outcome);
          completed.add(l);
          m.leased.remove(id);
          if (!keep) {
            m.queued.values().removeIf(e -> e.id == id);
          }
          if (next >= 0) {
            // Never earlier than it was (a concurrent lease's Retry-After or suspension stands).
            m.lo = Math.max(next, m.lo);
            m.hi = Math.max(next, m.hi);
          } else {
            m.lo = Math.max(now, m.lo);
            m.hi = Math.max(now, m.hi);
          }
        } else if (dice < 87) {
          ModelHost m = model.get(hosts[random.nextInt(hosts.length)]);
          int what = random.nextInt(3);
          if (what == 0) {
            m.crawlDelay = random.nextInt(4) == 0 ? 0 : random.nextInt(10_000);
            if (trace) log.add("op " + op + " setCrawlDelay " + m.key + " " + m.crawlDelay);
            f.setCrawlDelay(m.key, Duration.ofMillis(m.crawlDelay));
          } else if (what == 1) {
            m.crawlDelay = -1;
            if (trace) log.add("op " + op + " clearCrawlDelay " + m.key);
            f.clearCrawlDelay(m.key);
          } else {
            m.limit = 1 + random.nextInt(4);
            if (trace) log.add("op " + op + " setLimit " + m.key + " " + m.limit);
            f.setConnectionLimit(m.key, m.limit);
          }
        } else if (dice < 99) {
          clock.advanceMillis(random.nextInt(20) == 0 ? suspendFor : random.nextInt(4) == 0 ? 0 : random.nextInt(3_000));
        } else {
          if (trace) log.add("op " + op + " reopen");
          f.close();
          f = Frontier.open(store, options);
          beforeReopen.addAll(outstanding);
          outstanding.clear();
          leaseIds.clear();
          completed.clear();
          model.values().forEach(m -> m.leased.clear());
        }

        FrontierStats stats = f.stats();
        long queued = model.values().stream().mapToLong(m -> m.queued.size()).sum();
        long leased = model.values().stream().mapToLong(m -> m.leased.size()).sum();
        long withUrls = model.values().stream().filter(m -> !m.queued.isEmpty()).count();
        assertThat(stats.queuedUrls()).as(context).isEqualTo(queued);
        assertThat(stats.leasedUrls()).as(context).isEqualTo(leased);
        assertThat(stats.hosts()).as(context).isBetween(withUrls, (long) hosts.length);
        assertThat(List.of(stats.fetched(), stats.retried(), stats.failed())).as(context)
            .containsExactly(fetched, retried, failed);
        assertThat(f.invariantsHold()).as(context).isTrue();
      }

      f.close();
      f = Frontier.open(store, options);
      List<String> expected = new ArrayList<>();
      model.values().forEach(m -> m.queued.values().forEach(e -> expected.add(e.url)));
      List<String> drained = FrontierTest.drainLeasesAdvancingClock(f, clock, 10).stream().map(Lease::url).toList();
      assertThat(drained).as(params + ": drain").containsExactlyInAnyOrderElementsOf(expected);
    } finally {
      f.close();
    }
  }
}
