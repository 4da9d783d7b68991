package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.internal.HostKeys;
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

/**
 * A seeded random run of the frontier against an in-memory model of what it must do: offers
 * (duplicate URLs, priorities, vias over the cap, URLs of 10 KB), leases, completions of every
 * kind (Retry-After of zero and of more millis than a long holds), completions of leases already
 * completed or from before a reopen (refused), Crawl-delays set and cleared, connection limits
 * changed while leases are out, clock moves and reopens. After every step: the lease is the head
 * of an allowed host and the earliest ready one of its group, with its via and hops; the stats
 * match; {@code invariantsHold()}. At the end, after a reopen, every URL left in the model comes
 * out once. The back-off has no jitter (initial 0), so every time is predictable; a host's
 * schedule time is known to lie in [lo, hi]. {@link FrontierOracleTest} and
 * {@link FrontierFuzzTest} choose the setups.
 */
final class FrontierModelRun {
  /** Characters of 1, 2, 3 and 4 UTF-8 bytes, so a long via's cut may fall inside any of them. */
  static final String[] VIA_CHARACTERS = {"a", "/", "é", "€", "𝄞"};
  static final int[] PRIORITIES = {0, 0, 0, 0, 7, -3, 127, -128};

  /** The frontier's options and the hosts of one run. */
  record Setup(String[] hosts, int partitions, int workingSet, int knownHosts, long readAheadBytes,
      long defaultDelayMillis, int deferredCompletions, int operations) {
    @Override
    public String toString() {
      return "partitions " + partitions + " ws " + workingSet + " cache " + knownHosts + " readAhead " + readAheadBytes
          + " delay " + defaultDelayMillis + " deferred " + deferredCompletions + " hosts " + hosts.length;
    }
  }

  record Entry(long id, String url, String via, int hops) {}

  /** The model of one host. Its schedule time is known to lie in [lo, hi] (see offer). */
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
    /** The lease whose start last moved lo and hi on, and what they were before; null once anything else moved them. */
    Long spacedBy;
    long[] spacedFrom;
    /** The latest request started, for a host whose starts are spaced. */
    long lastStart = Long.MIN_VALUE / 2;

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

    /** One connection for a host with a Crawl-delay, whatever its limit. */
    int connections() {
      return crawlDelay > 0 ? 1 : limit;
    }

    /** Several connections and a delay: each start moves the host's time on by the delay. */
    boolean spacesStarts(long delay) {
      return delay > 0 && connections() > 1;
    }

    boolean eligible(long now) {
      return firstUnleased() != null && leased.size() < connections() && lo <= now;
    }
  }

  private FrontierModelRun() {}

  /** Starts spaced by the delay get a twentieth more, at most 10 ms, for the server's scheduling. */
  static long startMargin(long delay) {
    return Math.min(10, delay / 20);
  }

  /** Runs {@code setup}'s operations, drawn from {@code random}, on a new frontier in {@code dir}. */
  static void run(Setup setup, Random random, Path dir) throws Exception {
    ManualClock clock = new ManualClock(10_000_000);
    long defaultDelay = setup.defaultDelayMillis();
    String[] hosts = setup.hosts();
    int partitions = setup.partitions();
    String params = setup.toString();
    long maxCrawlDelay = 5_000;
    long maxRetryAfter = 2_000;
    int suspendAfter = 3;
    long suspendFor = 3_600_000;
    FrontierOptions options = FrontierOptions.builder().clock(clock)
        .defaultDelay(Duration.ofMillis(defaultDelay)).maxCrawlDelay(Duration.ofMillis(maxCrawlDelay))
        .maxRetryAfter(Duration.ofMillis(maxRetryAfter)).backoffInitial(Duration.ZERO).backoffMax(Duration.ZERO)
        .suspendAfter(suspendAfter).suspendFor(Duration.ofMillis(suspendFor))
        .workingSetHosts(setup.workingSet()).knownHostsCache(setup.knownHosts()).readAheadBytes(setup.readAheadBytes())
        .partitions(partitions).deferredCompletions(setup.deferredCompletions()).build();

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

    List<String> log = new ArrayList<>();
    boolean trace = Boolean.getBoolean("fuzz.trace");
    Frontier f = Frontier.open(dir, options);
    try {
      for (int op = 0; op < setup.operations(); op++) {
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
            String via = randomVia(random, hosts);
            int hops = random.nextInt(4) == 0 ? random.nextInt(256) : 0;
            batch.add(new FrontierEntry(url, host, random.nextInt(5), priority).withVia(via).withRedirectHops(hops));
            ModelHost m = model.get(host);
            if (m.queued.isEmpty() && m.leased.isEmpty()) {
              m.hi = Math.max(now, m.hi);
            }
            long id = arrival++;
            m.queued.put(new long[] {priority, id}, new Entry(id, url, storedVia(via), hops));
          }
          if (trace) {
            for (FrontierEntry e : batch) log.add("op " + op + " t " + now + " offer " + e.hostKey() + " " + e.url().substring(0, Math.min(40, e.url().length())) + " prio " + e.priority());
          }
          f.offer(batch);
        } else if (dice < 55) {
          Optional<Lease> lease = f.next(Duration.ZERO);
          int leasedGroup = lease.map(l -> group(l.hostKey(), partitions)).orElse(-1);
          ModelHost earliest = null;
          for (ModelHost m : model.values()) {
            if (m.eligible(now) && group(m.key, partitions) == leasedGroup
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
            long delay = m.crawlDelay < 0 ? defaultDelay : Math.max(defaultDelay, Math.min(m.crawlDelay, maxCrawlDelay));
            if (m.spacesStarts(delay)) {
              // Several connections: the next start waits the delay from this one.
              m.spacedFrom = new long[] {m.lo, m.hi};
              m.spacedBy = head.id;
              m.lo = Math.max(m.lo, now + delay + startMargin(delay));
              m.hi = Math.max(m.hi, now + delay + startMargin(delay));
            }
          }
        } else if (dice < 80) {
          if (!completed.isEmpty() && random.nextInt(10) == 0) {
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
          boolean endsSuspension = false;
          boolean spaced = m.spacesStarts(delay);
          if (kind < 5) {
            outcome = FetchOutcome.FETCHED;
            endsSuspension = m.failures >= suspendAfter;   // one success ends it
            m.failures = 0;
            next = spaced ? now : now + delay;   // several connections: the delay counts from the starts
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
          boolean skipSpacedLast = next < 0 && m.spacedBy != null && m.spacedBy == id;
          m.spacedBy = null;
          if (skipSpacedLast) {
            // No request was made: the spacing its start added goes.
            m.lo = m.spacedFrom[0];
            m.hi = m.spacedFrom[1];
          }
          if (endsSuspension) {
            m.lo = next;
            m.hi = next;
          } else if (next >= 0) {
            // Never earlier than it was (a concurrent lease's Retry-After or back-off stands).
            m.lo = Math.max(next, m.lo);
            m.hi = Math.max(next, m.hi);
          } else {
            m.lo = Math.max(now, m.lo);
            m.hi = Math.max(now, m.hi);
          }
          if (spaced) {
            // Never closer than the delay to the latest start, a suspension's end included.
            m.lo = Math.max(m.lo, m.lastStart + delay + startMargin(delay));
            m.hi = Math.max(m.hi, m.lastStart + delay + startMargin(delay));
          }
        } else if (dice < 87) {
          ModelHost m = model.get(hosts[random.nextInt(hosts.length)]);
          int what = random.nextInt(4);
          if (what == 3) {
            if (outstanding.isEmpty()) {
              continue;
            }
            Lease l = outstanding.get(random.nextInt(outstanding.size()));
            ModelHost lm = model.get(l.hostKey());
            long delay = lm.crawlDelay < 0 ? defaultDelay : Math.max(defaultDelay, Math.min(lm.crawlDelay, maxCrawlDelay));
            if (trace) log.add("op " + op + " t " + now + " tryStartRequest " + l.url());
            long wait = f.tryStartRequest(l);
            if (lm.spacesStarts(delay)) {
              long allowed = lm.lastStart + delay + startMargin(delay);
              assertThat(wait).as("%s: wait before a request of %s", context, lm.key).isEqualTo(Math.max(0, allowed - now));
              if (wait == 0) {
                lm.spacedBy = null;   // a lease whose request went out is not given back as SKIPPED's spacing
                lm.lastStart = now;
                lm.lo = Math.max(lm.lo, now + delay + startMargin(delay));
                lm.hi = Math.max(lm.hi, now + delay + startMargin(delay));
              }
            } else {
              assertThat(wait).as("%s: a host that does not space its starts never waits", context).isZero();
            }
          } else if (what == 0) {
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
          f = Frontier.open(dir, options);
          beforeReopen.addAll(outstanding);
          outstanding.clear();
          leaseIds.clear();
          completed.clear();
          model.values().forEach(m -> {
            m.leased.clear();
            m.spacedBy = null;
            m.lastStart = Long.MIN_VALUE / 2;
          });
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
      f = Frontier.open(dir, options);
      List<String> expected = new ArrayList<>();
      model.values().forEach(m -> m.queued.values().forEach(e -> expected.add(e.url)));
      List<String> drained = FrontierTest.drainLeasesAdvancingClock(f, clock, 10).stream().map(Lease::url).toList();
      assertThat(drained).as(params + ": drain").containsExactlyInAnyOrderElementsOf(expected);
    } finally {
      f.close();
    }
  }

  /** None, empty, a page of another host, or one longer than the cap. */
  static String randomVia(Random random, String[] hosts) {
    int dice = random.nextInt(10);
    if (dice < 3) {
      return null;
    }
    if (dice < 4) {
      return "";
    }
    if (dice < 9) {
      return "https://" + hosts[random.nextInt(hosts.length)] + "/from/" + random.nextInt(1_000);
    }
    StringBuilder via = new StringBuilder("https://long.example/?q=");
    while (via.length() < 1_500) {
      via.append(VIA_CHARACTERS[random.nextInt(VIA_CHARACTERS.length)]);
    }
    return via.toString();
  }

  /**
   * The via a lease must carry: null for none or empty, else the longest prefix of whole code
   * points that fits the cap in UTF-8. Counted by code point, unlike the frontier's byte walk.
   */
  static String storedVia(String via) {
    if (via == null || via.isEmpty()) {
      return null;
    }
    int bytes = 0;
    int end = 0;
    while (end < via.length()) {
      int cp = via.codePointAt(end);
      int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + size > FrontierEntry.MAX_VIA_BYTES) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    return via.substring(0, end);
  }

  /** The group whose lock and schedule serve the host: its partition mod the number of groups. */
  static int group(String hostKey, int partitions) {
    return HostKeys.partition(HostKeys.utf8(hostKey), partitions) % Math.min(partitions, Frontier.MAX_GROUPS);
  }
}
