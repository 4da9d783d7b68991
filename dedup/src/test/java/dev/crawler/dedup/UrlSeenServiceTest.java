package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlSeenService.CapacityPolicy;
import dev.crawler.dedup.UrlSeenService.FalsePositivePolicy;
import dev.crawler.dedup.UrlSeenService.Recovery;
import dev.crawler.dedup.UrlSeenService.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class UrlSeenServiceTest {
  @TempDir Path dir;

  private UrlSeenService.Builder options(long expected) {
    return UrlSeenService.Options.builder(dir).expectedUrls(expected).recentUrls(1 << 12);
  }

  static List<String> urls(int count, String prefix) {
    List<String> urls = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      urls.add("https://" + prefix + (i % 97) + ".example/page/" + i);
    }
    return urls;
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void eachUrlIsNewExactlyOnceWhenThreadsRaceOnIt(FalsePositivePolicy policy) throws Exception {
    List<String> urls = urls(20_000, "race");
    ConcurrentHashMap<String, AtomicInteger> newCounts = new ConcurrentHashMap<>();
    try (UrlSeenService seen = UrlSeenService.open(options(100_000).policy(policy).build())) {
      int threads = 4;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        List<String> mine = new ArrayList<>(urls);
        Collections.shuffle(mine, new Random(t));
        done.add(pool.submit(() -> {
          start.await();
          // Batches of a page's links, as the crawler sends them.
          for (int from = 0; from < mine.size(); from += 50) {
            List<String> page = mine.subList(from, Math.min(from + 50, mine.size()));
            List<Verdict> verdicts = seen.markSeenAll(page.stream().map(UrlFingerprint::of).toList());
            for (int i = 0; i < page.size(); i++) {
              if (verdicts.get(i) == Verdict.NEW) {
                newCounts.computeIfAbsent(page.get(i), u -> new AtomicInteger()).incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      if (policy == FalsePositivePolicy.VERIFY) {
        assertThat(newCounts).hasSize(urls.size());
      } else {
        // A false positive may skip a URL; never more than a few at this size.
        assertThat(newCounts.size()).isBetween(urls.size() - 40, urls.size());
      }
      assertThat(newCounts.values()).allMatch(c -> c.get() == 1);
      UrlSeenStats stats = seen.stats();
      assertThat(stats.checks()).isEqualTo(4L * urls.size());
      assertThat(stats.newUrls()).isEqualTo(newCounts.size());
      assertThat(stats.seen()).isEqualTo(stats.checks() - stats.newUrls());
    }
  }

  @Test
  void aBatchThatRepeatsAUrlAnswersNewOnce() throws IOException {
    try (UrlSeenService seen = UrlSeenService.open(options(1_000).build())) {
      UrlFingerprint a = UrlFingerprint.of("https://example.org/a");
      UrlFingerprint b = UrlFingerprint.of("https://example.org/b");
      assertThat(seen.markSeenAll(List.of(a, b, a, a))).containsExactly(Verdict.NEW, Verdict.NEW, Verdict.SEEN,
          Verdict.SEEN);
      assertThat(seen.markSeen("https://example.org/b")).isEqualTo(Verdict.SEEN);
    }
  }

  @Test
  void aStoreWithNothingToCompactReportsNoBacklog() throws IOException {
    try (UrlSeenService seen = UrlSeenService.open(options(1_000).build())) {
      seen.markSeenAll(List.of(UrlFingerprint.of("https://example.org/a")));
      // -1 would mean RocksDB refused one of the properties read.
      assertThat(seen.storeCompactionBacklog()).isZero();
    }
  }

  @Test
  void theStartLineSaysWhyAGrowingStacksFirstFilterHasHalfTheRateAskedFor() throws IOException {
    assertThat(startLine(UrlSeenService.Options.builder(dir.resolve("grow")).expectedUrls(1_000)
        .falsePositiveRate(0.01).onCapacity(CapacityPolicy.GROW)))
        .contains("sized for 1,000 URLs at 0.5% (a growing stack: its first filter gets half the 1% asked for,");
    assertThat(startLine(UrlSeenService.Options.builder(dir.resolve("warn")).expectedUrls(1_000)
        .falsePositiveRate(0.01).onCapacity(CapacityPolicy.WARN)))
        .contains("sized for 1,000 URLs at 1%; policy").doesNotContain("half");
  }

  private static String startLine(UrlSeenService.Builder options) throws IOException {
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(UrlSeenService.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try (UrlSeenService seen = UrlSeenService.open(options.build())) {
      return lines.list.stream().map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("URL-seen: ")).findFirst().orElseThrow();
    } finally {
      logger.detachAppender(lines);
    }
  }

  @Test
  void anOverfullFilterWarnsAtEachFurtherQuarterAndOnceWhenFull() throws IOException {
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(UrlSeenService.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> warnings =
        new ch.qos.logback.core.read.ListAppender<>();
    warnings.start();
    logger.addAppender(warnings);
    try (UrlSeenService seen = UrlSeenService.open(options(1_000).falsePositiveRate(0.1)
        .onCapacity(CapacityPolicy.WARN).policy(FalsePositivePolicy.VERIFY).build())) {
      urls(20_000, "overfull").forEach(seen::markSeen);
    } finally {
      logger.detachAppender(warnings);
    }
    List<String> messages = warnings.list.stream()
        .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages.get(0)).contains("past the 1,000 it was sized for");
    // From 1,000 to "full" in steps of a quarter: about twenty lines, not one per check.
    assertThat(messages).hasSizeBetween(5, 30).noneMatch(m -> m.contains("Infinity"));
    assertThat(messages.stream().filter(m -> m.contains("the filter is full"))).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void verifyCatchesTheFilterFalsePositivesAndLosesNoUrl() throws IOException {
    // A filter far too small (sized for 1,000 at 10%) with 20,000 URLs: it says "maybe" often.
    List<String> urls = urls(20_000, "verify");
    try (UrlSeenService seen = UrlSeenService.open(options(1_000).falsePositiveRate(0.1)
        .onCapacity(CapacityPolicy.WARN).policy(FalsePositivePolicy.VERIFY).build())) {
      for (String url : urls) {
        assertThat(seen.markSeen(url)).as(url).isEqualTo(Verdict.NEW);
      }
      for (String url : urls) {
        assertThat(seen.markSeen(url)).isEqualTo(Verdict.SEEN);
      }
      UrlSeenStats stats = seen.stats();
      assertThat(stats.caughtFalsePositives()).isGreaterThan(1_000);
      assertThat(stats.newUrls()).isEqualTo(urls.size());
      assertThat(stats.estimatedSkips()).isZero();
    }
  }

  @Test
  void acceptReportsAboutAsManySkipsAsItMade() throws IOException {
    List<String> urls = urls(20_000, "accept");
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).falsePositiveRate(0.05)
        .onCapacity(CapacityPolicy.WARN).policy(FalsePositivePolicy.ACCEPT).build())) {
      int fresh = 0;
      for (String url : urls) {
        if (seen.markSeen(url) == Verdict.NEW) {
          fresh++;
        }
      }
      int skipped = urls.size() - fresh;
      assertThat(skipped).isGreaterThan(100);
      // The estimate lags the rate it follows (refreshed every 4,096 NEW answers): within a factor of two.
      assertThat(seen.stats().estimatedSkips()).isBetween(skipped / 2.0, skipped * 2.0);
      assertThat(seen.stats().caughtFalsePositives()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void everyUrlIsSeenAfterACleanCloseAndReopen(FalsePositivePolicy policy) throws IOException {
    List<String> urls = urls(30_000, "reopen");
    try (UrlSeenService seen = UrlSeenService.open(options(50_000).policy(policy).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.FRESH);
      urls.forEach(seen::markSeen);
    }
    assertThat(dir.resolve("filter-0.bloom")).exists();
    try (UrlSeenService seen = UrlSeenService.open(options(50_000).policy(policy).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.LOADED);
      for (String url : urls) {
        assertThat(seen.mightHaveSeen(url)).isTrue();
        assertThat(seen.markSeen(url)).isEqualTo(Verdict.SEEN);
      }
      assertThat(seen.markSeen("https://new.example/")).isEqualTo(Verdict.NEW);
    }
    try (UrlSeenService seen = UrlSeenService.open(options(50_000).policy(policy).build())) {
      assertThat(seen.markSeen("https://new.example/")).isEqualTo(Verdict.SEEN);
    }
  }

  @Test
  void thePageLayoutGrowsAndKeepsEveryUrlThroughAReopenAndARebuild() throws IOException {
    // The crawler's seen.filter-layout: page. 10,000 URLs in a filter sized for 2,000 make it grow.
    List<String> urls = urls(10_000, "page");
    UrlSeenService.Options page = options(2_000).layout(BloomFilter.Layout.PAGE)
        .onCapacity(CapacityPolicy.GROW).policy(FalsePositivePolicy.VERIFY).build();
    try (UrlSeenService seen = UrlSeenService.open(page)) {
      for (String url : urls) {
        assertThat(seen.markSeen(url)).isEqualTo(Verdict.NEW);
      }
      assertThat(seen.stats().filters()).isGreaterThan(1);
    }
    assertThat(BloomFilter.readFrom(dir.resolve("filter-1.bloom")).layout()).isEqualTo(BloomFilter.Layout.PAGE);
    // A reopen that asks for the other layout loads the saved filters as they were.
    try (UrlSeenService seen = UrlSeenService.open(options(2_000).layout(BloomFilter.Layout.CACHE_LINE)
        .onCapacity(CapacityPolicy.GROW).policy(FalsePositivePolicy.VERIFY).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.LOADED);
      urls.forEach(url -> assertThat(seen.mightHaveSeen(url)).isTrue());
    }
    assertThat(BloomFilter.readFrom(dir.resolve("filter-0.bloom")).layout()).isEqualTo(BloomFilter.Layout.PAGE);
    // Without its files the filter is rebuilt from the exact store, in the layout asked for.
    try (var files = Files.list(dir)) {
      for (Path file : files.filter(p -> p.getFileName().toString().endsWith(".bloom")).toList()) {
        Files.delete(file);
      }
    }
    try (UrlSeenService seen = UrlSeenService.open(page)) {
      assertThat(seen.recovery()).isEqualTo(Recovery.REBUILT);
      for (String url : urls) {
        assertThat(seen.markSeen(url)).isEqualTo(Verdict.SEEN);
      }
    }
    assertThat(BloomFilter.readFrom(dir.resolve("filter-0.bloom")).layout()).isEqualTo(BloomFilter.Layout.PAGE);
  }

  @Test
  void aDamagedFilterFileIsRebuiltFromTheStoreNotReused() throws IOException {
    List<String> urls = urls(5_000, "damaged");
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).build())) {
      urls.forEach(seen::markSeen);
    }
    Path file = dir.resolve("filter-0.bloom");
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 1;
    Files.write(file, bytes);
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.REBUILT);
      for (String url : urls) {
        assertThat(seen.markSeen(url)).isEqualTo(Verdict.SEEN);
      }
    }
  }

  @Test
  void growingKeepsTheCompoundRateUnderTheTarget() throws IOException {
    double target = 0.01;
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).falsePositiveRate(target)
        .onCapacity(CapacityPolicy.GROW).policy(FalsePositivePolicy.ACCEPT).build())) {
      urls(80_000, "grow").forEach(seen::markSeen);
      UrlSeenStats stats = seen.stats();
      assertThat(stats.filters()).isGreaterThanOrEqualTo(3);
      int falsePositives = 0;
      int queries = 200_000;
      for (String url : urls(queries, "absent")) {
        if (seen.mightHaveSeen(url)) {
          falsePositives++;
        }
      }
      double measured = (double) falsePositives / queries;
      assertThat(measured).isLessThanOrEqualTo(target + 3 * Math.sqrt(target / queries));
      assertThat(stats.estimatedRate()).isLessThanOrEqualTo(target);
      assertThat(stats.stack()).hasSize(stats.filters());
      assertThat(stats.stack().get(0).capacity()).isEqualTo(10_000);
      assertThat(stats.stack().get(1).capacity()).as("each grown filter is larger").isGreaterThan(10_000);
      long allBits = stats.stack().stream().mapToLong(FilterFill::bits).sum();
      assertThat(allBits / 8).isEqualTo(stats.filterBytes());
      for (FilterFill filter : stats.stack()) {
        // n is read from the fill, so the standard curve at n gives back the fill to the power k.
        assertThat(filter.curveRate(filter.estimatedKeys()))
            .isCloseTo(Math.pow(filter.fillRatio(), filter.hashes()), org.assertj.core.data.Percentage.withPercentage(1e-6));
      }
    }
    // The stack survives a close and reopen.
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).build())) {
      assertThat(seen.stats().filters()).isGreaterThanOrEqualTo(3);
      assertThat(seen.markSeen(urls(80_000, "grow").get(79_999))).isEqualTo(Verdict.SEEN);
    }
  }

  @Test
  void warnPolicyKeepsOneFilterAndItsRateRises() throws IOException {
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).falsePositiveRate(0.01)
        .onCapacity(CapacityPolicy.WARN).policy(FalsePositivePolicy.VERIFY).build())) {
      urls(40_000, "warn").forEach(seen::markSeen);
      UrlSeenStats stats = seen.stats();
      assertThat(stats.filters()).isEqualTo(1);
      assertThat(stats.estimatedRate()).isGreaterThan(0.1);
      assertThat(stats.newUrls()).isEqualTo(40_000);
    }
  }

  @Test
  void aBatchIsHandedToTheCallerBeforeItIsRecordedAndItsNewUrlsAreSeenMeanwhile() throws IOException {
    List<UrlFingerprint> batch = urls(20, "handed").stream().map(UrlFingerprint::of).toList();
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).build())) {
      List<Verdict> handed = new ArrayList<>();
      List<Verdict> answered = seen.markSeenAll(batch, verdicts -> {
        handed.addAll(verdicts);
        // another page finding the same links now: pending, so SEEN, never NEW twice
        assertThat(seen.markSeenAll(batch)).containsOnly(Verdict.SEEN);
      });
      assertThat(handed).hasSize(20).containsOnly(Verdict.NEW).isEqualTo(answered);
    }
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void aBatchWhoseCallerFailsIsNotRecordedAndIsNewAgainAfterAReopen(FalsePositivePolicy policy) throws IOException {
    List<UrlFingerprint> kept = urls(300, "kept").stream().map(UrlFingerprint::of).toList();
    List<UrlFingerprint> failed = urls(300, "failed").stream().map(UrlFingerprint::of).toList();
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).policy(policy).build())) {
      seen.markSeenAll(kept);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> seen.markSeenAll(failed, verdicts -> {
        throw new IllegalStateException("the frontier refused the batch");
      })).hasMessage("the frontier refused the batch");
      if (policy == FalsePositivePolicy.VERIFY) {
        // the store, not the filter, has the last word: they were never recorded
        assertThat(seen.markSeenAll(failed)).containsOnly(Verdict.NEW);
      }
    }
    try (UrlSeenService seen = UrlSeenService.open(options(10_000).policy(policy).build())) {
      assertThat(seen.recovery()).as("the filter holds unrecorded bits: rebuilt, not loaded").isEqualTo(Recovery.REBUILT);
      assertThat(seen.markSeenAll(kept)).containsOnly(Verdict.SEEN);
      if (policy == FalsePositivePolicy.ACCEPT) {
        assertThat(seen.markSeenAll(failed)).containsOnly(Verdict.NEW);
      }
    }
  }

  /** What the crawler checks against the heap before opening: the filter and the recent-URL slots. */
  @Test
  void heapBytesIsWhatANewServiceAllocates() throws IOException {
    UrlSeenService.Options sized = UrlSeenService.Options.builder(dir.resolve("sized")).expectedUrls(50_000)
        .recentUrls(1000).build();   // 1,000 rounds up to 1,024 slots
    UrlSeenService.Options budgeted = UrlSeenService.Options.builder(dir.resolve("budgeted")).expectedUrls(50_000)
        .memoryBudgetBytes(OptionalLong.of(300_000)).recentUrls(1000).build();
    for (UrlSeenService.Options options : List.of(sized, budgeted)) {
      try (UrlSeenService seen = UrlSeenService.open(options)) {
        assertThat(UrlSeenService.heapBytes(options)).isEqualTo(seen.stats().filterBytes() + 1024 * 8);
      }
    }
  }
  /** A batch whose offer failed answered nothing the stats could hold to: its NEWs were counted as SEENs. */
  @Test
  void aFailedBatchIsNotCountedInTheStats() throws Exception {
    try (UrlSeenService seen = UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(1000)
        .policy(UrlSeenService.FalsePositivePolicy.VERIFY).recentUrls(16).build())) {
      List<UrlFingerprint> batch = List.of(UrlFingerprint.of("https://a.example/1"), UrlFingerprint.of("https://a.example/2"));
      assertThatThrownBy(() -> seen.markSeenAll(batch, verdicts -> {
        throw new IllegalStateException("the frontier refused the offer");
      })).isInstanceOf(IllegalStateException.class);

      UrlSeenStats stats = seen.stats();
      assertThat(List.of(stats.checks(), stats.newUrls(), stats.seen(), stats.filterMaybes())).containsOnly(0L);
    }
  }
}
