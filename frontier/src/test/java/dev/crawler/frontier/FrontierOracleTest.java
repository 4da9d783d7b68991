package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.internal.HostKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random offers, leases, completions, settings, clock moves and reopens, each checked
 * against an in-memory model of what the frontier must do. Stops after a fixed number of
 * operations. The back-off has no jitter here (initial 0) so every time is predictable.
 * Every lease, before and after reopens, must carry the via and redirect hops its URL was
 * offered with (a via over the cap cut at a character boundary).
 */
class FrontierOracleTest {
  static final int OPERATIONS = 2_500;
  static final String[] HOSTS = {"a.com", "b.org", "c.net", "d.com", "e.io", "f.de", "g.fr", "h.uk", "i.jp"};
  static final int[] PRIORITIES = {0, 0, 0, 0, 7, -3};
  /** Characters of 1, 2, 3 and 4 UTF-8 bytes, so a long via's cut may fall inside any of them. */
  static final String[] VIA_CHARACTERS = {"a", "/", "é", "€", "𝄞"};

  /** What a lease of a URL must carry: its via as stored (cut, empty as null) and its hops. */
  record Found(String via, int redirectHops) {}

  @TempDir Path dir;

  /** The model of one host. Its schedule time is known to lie in [lo, hi] (see offer). */
  static final class ModelHost {
    final String key;
    final TreeMap<long[], String> queued = new TreeMap<>(
        Comparator.<long[]>comparingLong(e -> -e[0]).thenComparingLong(e -> e[1]));
    final Set<String> leased = new HashSet<>();
    long lo;
    long hi;
    int failures;
    long crawlDelay = -1;
    int limit = 1;

    ModelHost(String key) {
      this.key = key;
    }

    String firstUnleased() {
      for (String url : queued.values()) {
        if (!leased.contains(url)) {
          return url;
        }
      }
      return null;
    }

    boolean eligible(long now) {
      return firstUnleased() != null && leased.size() < limit && lo <= now;
    }
  }

  /**
   * Seeds 1 to 3 remember at most 2 hosts; seeds 4 and up remember every host, so hosts leave the
   * working set keeping their read-ahead, within a budget of a few URLs' bytes so some drop theirs.
   * Seeds 6 to 8 spread the hosts over 4 partitions, each its own group with its own lock and
   * schedule: the earliest host goes first within its group, not across groups.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
  void randomOperationsMatchTheModel(long seed) throws Exception {
    // 24 partitions: 16 groups, and two of them serve two partitions of these hosts each.
    int partitions = seed > 8 ? 24 : seed > 5 ? 4 : 1;
    assertThat(Arrays.stream(HOSTS).map(h -> group(h, partitions)).distinct().count())
        .as("groups the hosts fall in").isEqualTo(partitions == 1 ? 1 : partitions == 4 ? 4 : 5);
    Random random = new Random(seed);
    ManualClock clock = new ManualClock(10_000_000);
    long defaultDelay = 100;
    long maxCrawlDelay = 5_000;
    long maxRetryAfter = 2_000;
    int suspendAfter = 3;
    long suspendFor = 3_600_000;
    FrontierOptions options = FrontierOptions.builder().clock(clock)
        .defaultDelay(Duration.ofMillis(defaultDelay)).maxCrawlDelay(Duration.ofMillis(maxCrawlDelay))
        .maxRetryAfter(Duration.ofMillis(maxRetryAfter)).backoffInitial(Duration.ZERO).backoffMax(Duration.ZERO)
        .suspendAfter(suspendAfter).suspendFor(Duration.ofMillis(suspendFor))
        .workingSetHosts(1 + random.nextInt(4)).knownHostsCache(random.nextInt(3)).partitions(partitions).build();
    if (seed > 3) {
      options = options.toBuilder().knownHostsCache(HOSTS.length).readAheadBytes(2_000).build();
    }

    Map<String, ModelHost> model = new HashMap<>();
    for (String h : HOSTS) {
      model.put(h, new ModelHost(h));
    }
    List<Lease> outstanding = new ArrayList<>();
    Map<String, Found> found = new HashMap<>();
    // Its own stream, so the operations are those the seed drew before vias existed.
    Random viaRandom = new Random(seed * 1_000_003);
    long arrival = 0;
    int urlId = 0;
    long fetched = 0;
    long retried = 0;
    long failed = 0;

    Frontier f = Frontier.open(dir, options);
    try {
      for (int op = 0; op < OPERATIONS; op++) {
        long now = clock.millis();
        int dice = random.nextInt(100);
        String context = "seed " + seed + " op " + op;
        if (dice < 25) {
          List<FrontierEntry> batch = new ArrayList<>();
          int n = 1 + random.nextInt(5);
          for (int i = 0; i < n; i++) {
            String host = HOSTS[random.nextInt(HOSTS.length)];
            int priority = PRIORITIES[random.nextInt(PRIORITIES.length)];
            String url = "https://" + host + "/" + urlId++;
            String via = randomVia(viaRandom);
            int hops = viaRandom.nextInt(4) == 0 ? viaRandom.nextInt(256) : 0;
            batch.add(new FrontierEntry(url, host, random.nextInt(5), priority).withVia(via).withRedirectHops(hops));
            found.put(url, new Found(storedVia(via), hops));
            ModelHost m = model.get(host);
            if (m.queued.isEmpty() && m.leased.isEmpty()) {
              // The frontier may have let it go idle (then it comes back at max(now, time)) or
              // not yet noticed it is empty (then it keeps its time).
              m.hi = Math.max(now, m.hi);
            }
            m.queued.put(new long[] {priority, arrival++}, url);
          }
          f.offer(batch);
        } else if (dice < 55) {
          Optional<Lease> lease = f.next(Duration.ZERO);
          // The earliest ready host of the leased host's group (of all hosts with one group).
          int leasedGroup = lease.map(l -> group(l.hostKey(), partitions)).orElse(-1);
          ModelHost earliest = null;
          for (ModelHost m : model.values()) {
            if (m.eligible(now) && group(m.key, partitions) == leasedGroup && (earliest == null || m.hi < earliest.hi)) {
              earliest = m;
            }
          }
          if (lease.isEmpty()) {
            for (ModelHost m : model.values()) {
              assertThat(m.eligible(now) && m.hi <= now).as("%s: %s is ready but next() gave nothing", context, m.key)
                  .isFalse();
            }
          } else {
            Lease l = lease.get();
            ModelHost m = model.get(l.hostKey());
            assertThat(m.eligible(now)).as("%s: %s handed out but not allowed (lo %s, now %s, leased %s/%s)", context,
                m.key, m.lo, now, m.leased.size(), m.limit).isTrue();
            assertThat(l.url()).as("%s: head of %s", context, m.key).isEqualTo(m.firstUnleased());
            assertThat(new Found(l.via(), l.redirectHops())).as("%s: via and hops of %s", context, l.url())
                .isEqualTo(found.get(l.url()));
            assertThat(m.lo).as("%s: %s is not the earliest ready host", context, m.key)
                .isLessThanOrEqualTo(earliest.hi);
            m.leased.add(l.url());
            outstanding.add(l);
          }
        } else if (dice < 80) {
          if (outstanding.isEmpty()) {
            continue;
          }
          Lease l = outstanding.remove(random.nextInt(outstanding.size()));
          ModelHost m = model.get(l.hostKey());
          long delay = m.crawlDelay < 0 ? defaultDelay : Math.max(defaultDelay, Math.min(m.crawlDelay, maxCrawlDelay));
          int kind = random.nextInt(10);
          FetchOutcome outcome;
          long next;
          if (kind < 6) {
            outcome = FetchOutcome.FETCHED;
            m.failures = 0;
            next = now + delay;
            fetched++;
          } else if (kind < 8) {
            long ra = random.nextInt(5_000);
            outcome = FetchOutcome.retryAfter(Duration.ofMillis(ra));
            m.failures++;
            long wait = Math.max(delay, Math.min(ra, maxRetryAfter));
            next = now + (m.failures >= suspendAfter ? Math.max(wait, suspendFor) : wait);
            retried++;
          } else if (kind == 8) {
            outcome = FetchOutcome.FAILED;
            m.failures++;
            next = now + (m.failures >= suspendAfter ? Math.max(delay, suspendFor) : delay);
            failed++;
          } else {
            // No request made: the host keeps its time (known to lie in [lo, hi]), or goes on now.
            outcome = FetchOutcome.SKIPPED;
            next = -1;
            fetched++;
          }
          f.complete(l, outcome);
          m.leased.remove(l.url());
          if (outcome.kind() != FetchOutcome.Kind.RETRY_AFTER) {
            m.queued.values().remove(l.url());
          }
          if (next >= 0) {
            // Never earlier than it was (a concurrent lease's Retry-After or suspension stands).
            m.lo = Math.max(next, m.lo);
            m.hi = Math.max(next, m.hi);
          } else {
            m.lo = Math.max(now, m.lo);
            m.hi = Math.max(now, m.hi);
          }
        } else if (dice < 85) {
          ModelHost m = model.get(HOSTS[random.nextInt(HOSTS.length)]);
          if (random.nextBoolean()) {
            m.crawlDelay = random.nextInt(10_000);
            f.setCrawlDelay(m.key, Duration.ofMillis(m.crawlDelay));
          } else {
            m.limit = 1 + random.nextInt(3);
            f.setConnectionLimit(m.key, m.limit);
          }
        } else if (dice < 99) {
          clock.advanceMillis(random.nextInt(20) == 0 ? suspendFor : random.nextInt(3_000));
        } else {
          f.close();
          f = Frontier.open(dir, options);
          outstanding.clear();
          model.values().forEach(m -> m.leased.clear());
        }

        FrontierStats stats = f.stats();
        long queued = model.values().stream().mapToLong(m -> m.queued.size()).sum();
        long leased = model.values().stream().mapToLong(m -> m.leased.size()).sum();
        long withUrls = model.values().stream().filter(m -> !m.queued.isEmpty()).count();
        assertThat(stats.queuedUrls()).as(context).isEqualTo(queued);
        assertThat(stats.leasedUrls()).as(context).isEqualTo(leased);
        // A host whose queue empties leaves the schedule when the frontier next looks at it.
        assertThat(stats.hosts()).as(context).isBetween(withUrls, (long) HOSTS.length);
        assertThat(List.of(stats.fetched(), stats.retried(), stats.failed())).as(context)
            .containsExactly(fetched, retried, failed);
        assertThat(f.invariantsHold()).isTrue();
      }

      // After a reopen (which ends every lease) every URL still in the model comes out, and nothing else.
      f.close();
      f = Frontier.open(dir, options);
      Set<String> expected = new HashSet<>();
      model.values().forEach(m -> expected.addAll(m.queued.values()));
      List<Lease> leases = FrontierTest.drainLeasesAdvancingClock(f, clock, 10);
      for (Lease l : leases) {
        assertThat(new Found(l.via(), l.redirectHops())).as("via and hops of %s after reopen", l.url())
            .isEqualTo(found.get(l.url()));
      }
      List<String> handedOut = leases.stream().map(Lease::url).toList();
      Set<String> drained = new HashSet<>(handedOut);
      assertThat(drained).as("no URL handed out twice").hasSameSizeAs(handedOut);
      Set<String> missing = new HashSet<>(expected);
      missing.removeAll(drained);
      Set<String> unexpected = new HashSet<>(drained);
      unexpected.removeAll(expected);
      assertThat(missing).as("queued but never handed out").isEmpty();
      assertThat(unexpected).as("handed out but not queued").isEmpty();
    } finally {
      f.close();
    }
  }

  /** None, empty, a page of another host, or one longer than the cap. */
  static String randomVia(Random random) {
    int dice = random.nextInt(10);
    if (dice < 3) {
      return null;
    }
    if (dice < 4) {
      return "";
    }
    if (dice < 9) {
      return "https://" + HOSTS[random.nextInt(HOSTS.length)] + "/from/" + random.nextInt(1_000);
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
