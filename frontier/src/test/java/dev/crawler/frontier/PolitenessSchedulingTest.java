package dev.crawler.frontier;

import static dev.crawler.frontier.FrontierTest.urls;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Politeness through the frontier, on a clock the test moves. */
class PolitenessSchedulingTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(5_000_000);

  /** Options on the test's clock with a default delay of one second, for each test to finish. */
  private FrontierOptions.Builder oneSecondDelay() {
    return FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofSeconds(1));
  }

  @Test
  void neverTwoLeasesForAHostWithinItsDelayNorMoreThanItsConnectionLimit() throws Exception {
    Random random = new Random(7);
    long defaultDelay = 300;
    long maxCrawlDelay = 2_000;
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofMillis(defaultDelay))
        .maxCrawlDelay(Duration.ofMillis(maxCrawlDelay)).backoffInitial(Duration.ofMillis(500))
        .backoffMax(Duration.ofSeconds(5)).workingSetHosts(4).build();
    Map<String, Long> minDelay = new HashMap<>();
    Map<String, Integer> limit = new HashMap<>();
    Map<String, Long> lastEnd = new HashMap<>();
    Map<String, Long> lastStart = new HashMap<>();
    Map<String, Integer> inFlight = new HashMap<>();
    List<Lease> outstanding = new ArrayList<>();
    int leases = 0;
    try (Frontier f = Frontier.open(dir, options)) {
      for (int h = 0; h < 12; h++) {
        String host = "h" + h + ".com";
        f.offer(urls(host, 0, 60));
        int connections = 1 + random.nextInt(3);
        f.setConnectionLimit(host, connections);
        if (h % 2 == 0) {
          long crawlDelay = 1 + random.nextInt(4_000);
          f.setCrawlDelay(host, Duration.ofMillis(crawlDelay));
          minDelay.put(host, Math.max(defaultDelay, Math.min(crawlDelay, maxCrawlDelay)));
          limit.put(host, 1);   // a Crawl-delay host has one connection, whatever its limit
        } else {
          minDelay.put(host, defaultDelay);
          limit.put(host, connections);
        }
      }
      for (int op = 0; op < 4_000; op++) {
        int dice = random.nextInt(10);
        if (dice < 5) {
          Optional<Lease> lease = f.next(Duration.ZERO);
          if (lease.isPresent()) {
            String host = lease.get().hostKey();
            long now = clock.millis();
            if (lastEnd.containsKey(host) && limit.get(host) == 1) {   // with several, the delay counts from starts
              assertThat(now - lastEnd.get(host)).as("gap before a fetch of %s", host)
                  .isGreaterThanOrEqualTo(minDelay.get(host));
            }
            Long start = lastStart.put(host, now);
            if (start != null) {
              assertThat(now - start).as("gap between two starts on %s", host).isGreaterThanOrEqualTo(minDelay.get(host));
            }
            int n = inFlight.merge(host, 1, Integer::sum);
            assertThat(n).as("fetches of %s in flight", host).isLessThanOrEqualTo(limit.get(host));
            outstanding.add(lease.get());
            leases++;
          }
        } else if (dice < 8 && !outstanding.isEmpty()) {
          Lease lease = outstanding.remove(random.nextInt(outstanding.size()));
          f.complete(lease, random.nextInt(5) == 0 ? FetchOutcome.FAILED : FetchOutcome.FETCHED);
          lastEnd.put(lease.hostKey(), clock.millis());
          inFlight.merge(lease.hostKey(), -1, Integer::sum);
        } else {
          clock.advanceMillis(random.nextInt(400));
        }
      }
    }
    assertThat(leases).as("the test exercised the frontier").isGreaterThan(300);
  }

  @Test
  void earliestAllowedHostIsServedFirstSoNoHostStarves() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .workingSetHosts(3).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("big.com", 0, 500));
      for (int h = 0; h < 9; h++) {
        f.offer(urls("small" + h + ".com", 0, 5));
      }
      Map<String, Integer> served = new HashMap<>();
      for (int round = 0; round < 5; round++) {
        for (Optional<Lease> l = f.next(Duration.ZERO); l.isPresent(); l = f.next(Duration.ZERO)) {
          served.merge(l.get().hostKey(), 1, Integer::sum);
          f.complete(l.get(), FetchOutcome.FETCHED);
        }
        clock.advance(Duration.ofSeconds(1));
      }
      assertThat(served).hasSize(10).allSatisfy((host, n) -> assertThat(n).as(host).isEqualTo(5));
    }
  }

  @Test
  void hostThatWaitedLongestGoesFirst() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofSeconds(10)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 2));
      f.offer(urls("b.com", 0, 2));
      Lease a = FrontierTest.take(f);
      clock.advance(Duration.ofSeconds(1));
      Lease b = FrontierTest.take(f);
      f.complete(b, FetchOutcome.FETCHED);   // b may go again at +11 s
      clock.advance(Duration.ofSeconds(1));
      f.complete(a, FetchOutcome.FETCHED);   // a may go again at +12 s
      clock.advance(Duration.ofSeconds(30));
      assertThat(FrontierTest.take(f).hostKey()).isEqualTo(b.hostKey());
      assertThat(FrontierTest.take(f).hostKey()).isEqualTo(a.hostKey());
    }
  }

  @Test
  void suspendedHostIsRetriedWhenItsSuspensionEnds() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .backoffInitial(Duration.ofSeconds(1)).backoffMax(Duration.ofSeconds(1)).suspendAfter(2)
        .suspendFor(Duration.ofHours(1)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("down.com", 0, 5));
      f.complete(FrontierTest.take(f), FetchOutcome.FAILED);
      clock.advance(Duration.ofSeconds(1));
      f.complete(FrontierTest.take(f), FetchOutcome.FAILED);   // second in a row: suspended
      clock.advance(Duration.ofMinutes(59));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofMinutes(1));
      Lease retry = FrontierTest.take(f);
      f.complete(retry, FetchOutcome.FETCHED);
      assertThat(FrontierTest.take(f).url()).as("back to normal after one success").isEqualTo("https://down.com/3");
    }
  }

  @Test
  void crawlDelayIsCappedAndOutlivesARestart() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .maxCrawlDelay(Duration.ofSeconds(30)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.setCrawlDelay("slow.com", Duration.ofHours(1));   // before it has any URL
      assertThat(f.hostDelay("slow.com")).as("capped").isEqualTo(Duration.ofSeconds(30));
      f.setCrawlDelay("quick.com", Duration.ofMillis(10));
    }
    try (Frontier f = Frontier.open(dir, options)) {
      assertThat(f.hostDelay("slow.com")).as("an idle host's, from disk").isEqualTo(Duration.ofSeconds(30));
      assertThat(f.hostDelay("quick.com")).as("never below the default").isEqualTo(Duration.ofSeconds(1));
      assertThat(f.hostDelay("unknown.com")).as("a host it never heard of").isEqualTo(Duration.ofSeconds(1));
      f.offer(urls("slow.com", 0, 2));
      Lease first = FrontierTest.take(f);
      assertThat(f.hostDelay("slow.com")).as("a host in memory, leased").isEqualTo(Duration.ofSeconds(30));
      f.complete(first, FetchOutcome.FETCHED);
      clock.advance(Duration.ofSeconds(29));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      assertThat(FrontierTest.take(f).url()).isEqualTo("https://slow.com/1");
    }
  }

  @Test
  void aClearedCrawlDelayGivesTheHostItsDefaultDelayBackAcrossARestart() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .maxCrawlDelay(Duration.ofSeconds(30)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("was-slow.com", 0, 3));
      f.setCrawlDelay("was-slow.com", Duration.ofSeconds(20));
      f.complete(FrontierTest.take(f), FetchOutcome.FETCHED);
      clock.advance(Duration.ofSeconds(20));
      // robots.txt fetched again, without its Crawl-delay line now
      f.clearCrawlDelay("was-slow.com");
      f.clearCrawlDelay("never-slow.com");   // a host the frontier does not know: nothing to forget
      f.complete(FrontierTest.take(f), FetchOutcome.FETCHED);
      clock.advance(Duration.ofSeconds(1));
      Lease third = FrontierTest.take(f);
      assertThat(third.url()).isEqualTo("https://was-slow.com/2");
      f.complete(third, FetchOutcome.FETCHED);
    }
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("was-slow.com", 3, 5));
      clock.advance(Duration.ofSeconds(1));
      f.complete(FrontierTest.take(f), FetchOutcome.FETCHED);
      clock.advance(Duration.ofSeconds(1));
      assertThat(FrontierTest.take(f).url()).as("the default delay after a reopen").isEqualTo("https://was-slow.com/4");
    }
  }

  @Test
  void aRetryAfterStandsWhenAConcurrentFetchOfTheHostEndsAfterIt() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .maxRetryAfter(Duration.ofMinutes(10)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      // A 429 (come back in a minute), then a concurrent fetch that ends just after: it must not undo the minute.
      twoFetchesEnd(f, "busy.com", FetchOutcome.retryAfter(Duration.ofSeconds(60)));
      clock.advance(Duration.ofSeconds(59));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      assertThat(f.next(Duration.ZERO)).isPresent();
    }
  }

  @Test
  void aSuccessEndsASuspensionWhicheverFetchOfTheHostBringsIt() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .suspendAfter(1).suspendFor(Duration.ofHours(6)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      // Suspended for 6 h by the first, but the host answered the second: "one success ends it".
      twoFetchesEnd(f, "flaky.com", FetchOutcome.FAILED);
      clock.advance(Duration.ofMillis(1_010));   // the delay and its margin after the second start
      assertThat(f.next(Duration.ZERO)).isPresent();
    }
  }

  /**
   * Two fetches of the host in flight at once (connection limit 2), started the delay apart: the
   * first ends with {@code first}, then the second is FETCHED.
   */
  private void twoFetchesEnd(Frontier f, String host, FetchOutcome first) throws Exception {
    f.setConnectionLimit(host, 2);
    f.offer(urls(host, 0, 3));
    Lease one = FrontierTest.take(f);
    clock.advance(Duration.ofMillis(1_010));   // the delay and its margin
    Lease two = FrontierTest.take(f);
    f.complete(one, first);
    f.complete(two, FetchOutcome.FETCHED);
  }

  @Test
  void absurdDurationsFromServersOrCallersAreCappedNotThrown() throws Exception {
    FrontierOptions options = oneSecondDelay()
        .maxCrawlDelay(Duration.ofSeconds(30)).maxRetryAfter(Duration.ofMinutes(10)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("huge.com", 0, 2));
      f.setCrawlDelay("huge.com", Duration.ofSeconds(Long.MAX_VALUE));
      // A 503 with "Retry-After: 99999999999999999": more millis than a long holds.
      f.complete(FrontierTest.take(f), FetchOutcome.retryAfter(Duration.ofSeconds(99_999_999_999_999_999L)));
      assertThat(f.stats().leasedUrls()).as("the lease ended").isZero();
      clock.advance(Duration.ofMinutes(10).minusMillis(1));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofMillis(1));
      Lease again = FrontierTest.take(f);
      assertThat(again.url()).as("retried at the Retry-After cap").isEqualTo("https://huge.com/0");
      f.complete(again, FetchOutcome.FETCHED);
      clock.advance(Duration.ofSeconds(30));
      assertThat(f.next(Duration.ofSeconds(Long.MAX_VALUE)).map(Lease::url))
          .as("a wait longer than nanos can count returns a ready URL").contains("https://huge.com/1");
    }
  }

  @Test
  void aSkippedUrlCostsTheHostNoDelayButNeverShortensOne() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofSeconds(5))
        .connectionsPerHost(2).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      f.complete(FrontierTest.take(f), FetchOutcome.SKIPPED);          // a.com/0: robots.txt said no
      Lease fetched = FrontierTest.take(f);
      assertThat(fetched.url()).as("at once: the skipped start gave its spacing back").isEqualTo("https://a.com/1");
      assertThat(f.next(Duration.ZERO)).as("a second connection still waits the delay from a start").isEmpty();
      clock.advance(Duration.ofMillis(5_010));   // the delay and its margin
      Lease skipped = FrontierTest.take(f);
      assertThat(skipped.url()).isEqualTo("https://a.com/2");
      f.complete(fetched, FetchOutcome.FETCHED);                        // a.com waits 5 s from the latest start
      f.complete(skipped, FetchOutcome.SKIPPED);                        // ... which a skip does not cut
      clock.advance(Duration.ofMillis(5_009));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofMillis(1));
      assertThat(FrontierTest.take(f).url()).isEqualTo("https://a.com/3");
      assertThat(f.stats().fetched()).as("skips count as done").isEqualTo(3);
    }
  }

  @Test
  void twoStartsOnAHostAreNeverCloserThanItsDelayWhateverItsConnections() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofMillis(200))
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      List<Lease> inFlight = new ArrayList<>();
      inFlight.add(FrontierTest.take(f));
      for (int i = 1; i < 4; i++) {
        clock.advanceMillis(209);
        assertThat(f.next(Duration.ZERO)).as("the delay after a start, and less than its margin of 10 ms").isEmpty();
        clock.advanceMillis(1);
        inFlight.add(FrontierTest.take(f));
      }
      assertThat(inFlight).as("several connections in flight at once, 210 ms apart").hasSize(4);
    }
  }

  @Test
  void aRequestThatLeavesAfterItsLeaseSpacesTheNextStartFromWhenItLeft() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofMillis(200))
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      Lease first = FrontierTest.take(f);
      clock.advanceMillis(50);
      assertThat(f.tryStartRequest(first)).as("robots.txt, DNS and a connect came first").isZero();
      clock.advanceMillis(209);
      assertThat(f.next(Duration.ZERO)).as("the delay and less than its margin after the request went out").isEmpty();
      clock.advanceMillis(1);
      Lease second = FrontierTest.take(f);
      f.complete(second, FetchOutcome.SKIPPED);   // no request: its lease gives its spacing back
      Lease third = FrontierTest.take(f);
      assertThat(f.tryStartRequest(third)).as("a start 210 ms after the last").isZero();
      f.complete(first, FetchOutcome.FETCHED);
    }
  }

  @Test
  void aRequestLeasedOnTimeButSentLateMakesTheNextOneWait() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofMillis(200))
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      Lease first = FrontierTest.take(f);
      clock.advanceMillis(210);
      Lease second = FrontierTest.take(f);
      assertThat(f.tryStartRequest(second)).as("the second's request goes first").isZero();
      clock.advanceMillis(30);
      assertThat(f.tryStartRequest(first)).as("then the first waits the delay and margin from it").isEqualTo(180);
      clock.advanceMillis(180);
      assertThat(f.tryStartRequest(first)).isZero();
    }
  }

  @Test
  void aLeaseTakenBeforeItsHostLearntACrawlDelayMayNotMakeItsRequest() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      Lease learner = FrontierTest.take(f);
      Lease early = FrontierTest.take(f);
      assertThat(f.mayRequest(early)).isTrue();
      f.setCrawlDelay("a.com", Duration.ofSeconds(1));   // the learner read robots.txt
      assertThat(f.mayRequest(early)).as("one connection and a delay now").isFalse();
      f.complete(early, FetchOutcome.DEFERRED);
      f.complete(learner, FetchOutcome.DEFERRED);
      clock.advance(Duration.ofSeconds(1));
      Lease again = FrontierTest.take(f);
      assertThat(f.mayRequest(again)).as("leased under the new rules").isTrue();
      assertThat(f.next(Duration.ZERO)).as("one connection").isEmpty();
    }
  }

  @Test
  void aHostWithNoDelayGetsAllItsConnectionsAtOnce() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 20));
      for (int i = 0; i < 10; i++) {
        FrontierTest.take(f);
      }
      assertThat(f.next(Duration.ZERO)).as("the eleventh: over the connection limit").isEmpty();
    }
  }

  @Test
  void aCrawlDelayGivesItsHostOneConnectionAcrossARestart() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .connectionsPerHost(10).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 5));
      f.setCrawlDelay("a.com", Duration.ofSeconds(1));
    }
    try (Frontier f = Frontier.open(dir, options)) {
      Lease first = FrontierTest.take(f);
      clock.advance(Duration.ofSeconds(10));
      assertThat(f.next(Duration.ZERO)).as("a second connection while the first is in flight").isEmpty();
      f.complete(first, FetchOutcome.FETCHED);
      clock.advanceMillis(999);
      assertThat(f.next(Duration.ZERO)).as("999 ms after the end").isEmpty();
      clock.advanceMillis(1);
      FrontierTest.take(f);
    }
  }

  /**
   * With more partitions than lock groups a group serves several; one partition's hosts, all
   * read in and not due, used to fill half the working set and stop every refill, so the other
   * partition's hosts on disk, due long ago, were never served.
   */
  @Test
  void noHostStarvesWhenAGroupServesSeveralPartitions() throws Exception {
    int partitions = 32;   // group 0 serves partitions 0 and 16
    List<String> inPartition0 = hostsOfPartition(0, partitions, 5);
    List<String> inPartition16 = hostsOfPartition(16, partitions, 20);
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofSeconds(10))
        .partitions(partitions).workingSetHosts(128).build();   // 8 hosts a group
    Map<String, Integer> leases = new HashMap<>();
    try (Frontier f = Frontier.open(dir, options)) {
      for (String host : inPartition0) {
        f.offer(urls(host, 0, 100));
      }
      for (String host : inPartition16) {
        f.offer(urls(host, 0, 100));
      }
      for (int second = 0; second < 300; second++) {
        for (Optional<Lease> l = f.next(Duration.ZERO); l.isPresent(); l = f.next(Duration.ZERO)) {
          leases.merge(l.get().hostKey(), 1, Integer::sum);
          f.complete(l.get(), FetchOutcome.FETCHED);
        }
        clock.advance(Duration.ofSeconds(1));
      }
    }
    // Each host is due every 10 s for 300 s: 30 leases, give or take the first.
    for (String host : inPartition0) {
      assertThat(leases.getOrDefault(host, 0)).as(host + " (partition 0)").isBetween(29, 31);
    }
    for (String host : inPartition16) {
      assertThat(leases.getOrDefault(host, 0)).as(host + " (partition 16)").isBetween(29, 31);
    }
  }

  /** The same with no delay: every host is always due, and the group must still go round all of them. */
  @Test
  void noHostStarvesWhenAGroupServesSeveralPartitionsWithNoDelay() throws Exception {
    int partitions = 32;
    List<String> hosts = new ArrayList<>(hostsOfPartition(0, partitions, 5));
    hosts.addAll(hostsOfPartition(16, partitions, 20));
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .partitions(partitions).workingSetHosts(128).build();
    Map<String, Integer> leases = new HashMap<>();
    try (Frontier f = Frontier.open(dir, options)) {
      for (String host : hosts) {
        f.offer(urls(host, 0, 100));
      }
      for (int i = 0; i < 400; i++) {   // fewer than the 100 URLs of 8 hosts: none runs dry and lets others in
        Lease l = FrontierTest.take(f);
        leases.merge(l.hostKey(), 1, Integer::sum);
        f.complete(l, FetchOutcome.FETCHED);
        clock.advance(Duration.ofMillis(1));
      }
    }
    // 400 leases over 25 hosts: 16 each if shared evenly; none may be left out.
    assertThat(hosts).allSatisfy(host -> assertThat(leases.getOrDefault(host, 0)).as(host).isGreaterThanOrEqualTo(8));
  }

  private static List<String> hostsOfPartition(int partition, int partitions, int n) {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; hosts.size() < n; i++) {
      String host = "h" + i + ".test";
      if (dev.crawler.frontier.internal.HostKeys.partition(dev.crawler.frontier.internal.HostKeys.utf8(host),
          partitions) == partition) {
        hosts.add(host);
      }
    }
    return hosts;
  }

  @Test
  void idleHostComingBackStillWaitsItsDelay() throws Exception {
    FrontierOptions options = FrontierOptions.builder().clock(clock).defaultDelay(Duration.ofSeconds(5)).build();
    try (Frontier f = Frontier.open(dir, options)) {
      f.offer(urls("a.com", 0, 1));
      f.complete(FrontierTest.take(f), FetchOutcome.FETCHED);
      assertThat(f.next(Duration.ZERO)).isEmpty();   // a.com is now idle
      f.offer(urls("a.com", 1, 1));
      clock.advance(Duration.ofSeconds(4));
      assertThat(f.next(Duration.ZERO)).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      assertThat(FrontierTest.take(f).url()).isEqualTo("https://a.com/1");
    }
  }

  @Test
  void manyFetcherThreadsNeverHoldTwoLeasesOnAHostAndFetchEveryUrlOnce() throws Exception {
    FrontierOptions options = FrontierOptions.builder().defaultDelay(Duration.ZERO).workingSetHosts(16).build();
    int hosts = 50;
    int perHost = 40;
    Set<String> busy = ConcurrentHashMap.newKeySet();
    Set<String> fetched = ConcurrentHashMap.newKeySet();
    AtomicInteger twice = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (Frontier f = Frontier.open(dir, options)) {
      Future<?> offers = pool.submit(() -> {
        for (int h = 0; h < hosts; h++) {
          f.offer(urls("h" + h + ".com", 0, perHost));
        }
      });
      List<Future<?>> fetchers = new ArrayList<>();
      for (int t = 0; t < 5; t++) {
        fetchers.add(pool.submit(() -> {
          for (Optional<Lease> l = f.next(Duration.ofMillis(500)); l.isPresent(); l = f.next(Duration.ofMillis(500))) {
            if (!busy.add(l.get().hostKey())) {
              overlaps.incrementAndGet();
            }
            if (!fetched.add(l.get().url())) {
              twice.incrementAndGet();
            }
            busy.remove(l.get().hostKey());
            f.complete(l.get(), FetchOutcome.FETCHED);
          }
          return null;
        }));
      }
      offers.get();
      for (Future<?> fetcher : fetchers) {
        fetcher.get();
      }
      assertThat(overlaps.get()).as("two leases on one host at once").isZero();
      assertThat(twice.get()).as("URLs handed out twice").isZero();
      assertThat(fetched).hasSize(hosts * perHost);
      assertThat(f.stats().queuedUrls()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }
}
