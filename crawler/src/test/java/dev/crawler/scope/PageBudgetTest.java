package dev.crawler.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.scope.PageBudget.Grant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PageBudgetTest {
  private static final int THREADS = 8;
  private static final int CALLS_PER_THREAD = 5_000;

  @Test
  void aHostRunsOutBeforeTheCrawlDoes() {
    PageBudget budget = new PageBudget(3, 2);
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.HOST_SPENT);
    assertThat(budget.tryAcquire("b.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.tryAcquire("b.example")).isEqualTo(Grant.CRAWL_SPENT);
    assertThat(budget.tryAcquire("c.example")).isEqualTo(Grant.CRAWL_SPENT);
    assertThat(budget.tryAcquire("a.example")).as("a spent crawl says so first").isEqualTo(Grant.CRAWL_SPENT);
    assertThat(budget.spent()).isEqualTo(3);
  }

  @Test
  void aRefusalCostsNothing() {
    PageBudget budget = new PageBudget(10, 1);
    budget.tryAcquire("a.example");
    for (int i = 0; i < 5; i++) {
      assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.HOST_SPENT);
    }
    assertThat(budget.spent()).isEqualTo(1);
  }

  @Test
  void unlimitedBudgetsAlwaysGrant() {
    PageBudget budget = new PageBudget(Long.MAX_VALUE, Long.MAX_VALUE);
    for (int i = 0; i < 1_000; i++) {
      assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.GRANTED);
    }
    assertThat(budget.spent()).isEqualTo(1_000);
  }

  @Test
  void aResumedCrawlCountsThePagesItAlreadyFetched() {
    PageBudget budget = new PageBudget(10, Long.MAX_VALUE);
    budget.restore(9, Map.of());
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.CRAWL_SPENT);
    assertThat(budget.spent()).isEqualTo(10);
    budget.restore(12, Map.of());
    assertThat(budget.tryAcquire("b.example")).isEqualTo(Grant.CRAWL_SPENT);
  }

  @Test
  void aResumedCrawlCountsEachHostsPagesAgainstItsLimit() {
    PageBudget budget = new PageBudget(100, 3);
    budget.restore(5, Map.of("a.example", 3L, "b.example", 2L));
    assertThat(budget.tryAcquire("a.example")).isEqualTo(Grant.HOST_SPENT);
    assertThat(budget.tryAcquire("b.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.tryAcquire("b.example")).isEqualTo(Grant.HOST_SPENT);
    assertThat(budget.tryAcquire("c.example")).isEqualTo(Grant.GRANTED);
    assertThat(budget.spent()).isEqualTo(7);
  }

  @Test
  void limitsNameTheBadValue() {
    assertThatThrownBy(() -> new PageBudget(0, 1)).hasMessage("maxPages (0) must be >= 1");
    assertThatThrownBy(() -> new PageBudget(1, 0)).hasMessage("maxPagesPerHost (0) must be >= 1");
  }

  /** Ten hosts could take 1,500 pages; the crawl allows 1,000, and racing threads get exactly that. */
  @Test
  void racingThreadsNeverGetMoreThanTheCrawlLimit() throws InterruptedException {
    Race race = race(new PageBudget(1_000, 150), 10);
    assertThat(race.grants.get(Grant.GRANTED)).isEqualTo(1_000);
    race.perHost.values().forEach(granted -> assertThat(granted.get()).isLessThanOrEqualTo(150));
    assertThat(race.budget.spent()).isEqualTo(1_000);
  }

  /** Five hosts of 100 pages under a crawl limit of 1,000: every host gets exactly its 100. */
  @Test
  void racingThreadsNeverGetMoreThanAHostLimit() throws InterruptedException {
    Race race = race(new PageBudget(1_000, 100), 5);
    assertThat(race.grants.get(Grant.GRANTED)).isEqualTo(500);
    assertThat(race.grants.get(Grant.CRAWL_SPENT)).isZero();
    race.perHost.values().forEach(granted -> assertThat(granted.get()).isEqualTo(100));
    assertThat(race.budget.spent()).isEqualTo(500);
  }

  /** Limits that bind together: the crawl's total and every host's, both exact. */
  @Test
  void racingThreadsRespectBothLimitsAtOnce() throws InterruptedException {
    Race race = race(new PageBudget(250, 100), 3);
    assertThat(race.grants.get(Grant.GRANTED)).isEqualTo(250);
    race.perHost.values().forEach(granted -> assertThat(granted.get()).isLessThanOrEqualTo(100));
    assertThat(race.grants.get(Grant.CRAWL_SPENT)).isPositive();
    assertThat(race.budget.spent()).isEqualTo(250);
  }

  private record Race(PageBudget budget, Map<Grant, Integer> grants, Map<String, AtomicLong> perHost) {}

  private static Race race(PageBudget budget, int hosts) throws InterruptedException {
    Map<String, AtomicLong> perHost = new ConcurrentHashMap<>();
    Map<Grant, AtomicLong> counts = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int offset = t;
      threads.add(Thread.ofPlatform().start(() -> {
        awaitQuietly(start);
        for (int i = 0; i < CALLS_PER_THREAD; i++) {
          String host = "host" + (i + offset) % hosts + ".example";
          Grant grant = budget.tryAcquire(host);
          counts.computeIfAbsent(grant, g -> new AtomicLong()).incrementAndGet();
          if (grant == Grant.GRANTED) {
            perHost.computeIfAbsent(host, h -> new AtomicLong()).incrementAndGet();
          }
        }
      }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    Map<Grant, Integer> grants = new EnumMap<>(Grant.class);
    for (Grant grant : Grant.values()) {
      grants.put(grant, (int) counts.getOrDefault(grant, new AtomicLong()).get());
    }
    assertThat(grants.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(THREADS * CALLS_PER_THREAD);
    return new Race(budget, grants, perHost);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
