package dev.crawler.frontier.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.FrontierOptions;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PolitenessTest {
  final FrontierOptions options = FrontierOptions.builder()
      .defaultDelay(Duration.ofSeconds(1)).maxCrawlDelay(Duration.ofSeconds(30)).maxRetryAfter(Duration.ofMinutes(10))
      .backoffInitial(Duration.ofSeconds(10)).backoffMax(Duration.ofMinutes(30)).suspendAfter(10)
      .suspendFor(Duration.ofHours(6)).build();
  final Politeness politeness = new Politeness(options, new SplittableRandom(42));
  static final long NOW = 1_000_000;

  @Test
  void crawlDelayCanOnlySlowDownAndIsCapped() {
    assertThat(politeness.delayMillis(-1)).isEqualTo(1_000);
    assertThat(politeness.delayMillis(200)).as("below our default").isEqualTo(1_000);
    assertThat(politeness.delayMillis(5_000)).isEqualTo(5_000);
    assertThat(politeness.delayMillis(3_600_000)).as("capped by maxCrawlDelay").isEqualTo(30_000);
  }

  @Test
  void fetchedWaitsTheDelayAndResetsFailures() {
    assertThat(politeness.after(FetchOutcome.FETCHED, 5_000, 7, 0, NOW)).isEqualTo(new Politeness.Wait(NOW + 5_000, 0));
  }

  @Test
  void deferredWaitsTheDelayAndKeepsFailures() {
    assertThat(politeness.after(FetchOutcome.DEFERRED, 5_000, 7, 0, NOW)).isEqualTo(new Politeness.Wait(NOW + 5_000, 7));
  }

  @Test
  void retryAfterIsHonouredUpToItsCap() {
    assertThat(politeness.after(FetchOutcome.retryAfter(Duration.ofSeconds(120)), -1, 0, 0, NOW))
        .isEqualTo(new Politeness.Wait(NOW + 120_000, 1));
    assertThat(politeness.after(FetchOutcome.retryAfter(Duration.ofDays(2)), -1, 0, 0, NOW).nextAllowedMillis())
        .isEqualTo(NOW + 600_000);
    assertThat(politeness.after(FetchOutcome.retryAfter(Duration.ZERO), -1, 0, 0, NOW).nextAllowedMillis())
        .as("never less than the delay").isEqualTo(NOW + 1_000);
  }

  @Test
  void skippedKeepsTheHostsScheduleAndFailures() {
    assertThat(politeness.after(FetchOutcome.SKIPPED, 5_000, 3, NOW - 2_000, NOW))
        .as("ready since before: ready now").isEqualTo(new Politeness.Wait(NOW, 3));
    assertThat(politeness.after(FetchOutcome.SKIPPED, 5_000, 3, NOW + 4_000, NOW))
        .as("another fetch of the host ended meanwhile: its wait stands").isEqualTo(new Politeness.Wait(NOW + 4_000, 3));
  }

  @Test
  void aRetryAfterTooLongForMillisIsCappedNotThrown() {
    // 10^17 s: Duration holds it, toMillis() overflows (a server's "Retry-After: 99999999999999999").
    assertThat(politeness.after(FetchOutcome.retryAfter(Duration.ofSeconds(99_999_999_999_999_999L)), -1, 0, 0, NOW))
        .isEqualTo(new Politeness.Wait(NOW + 600_000, 1));
    assertThat(Politeness.saturatedMillis(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    assertThat(Politeness.saturatedMillis(Duration.ofMillis(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    assertThat(Politeness.saturatedMillis(Duration.ofMillis(1_234))).isEqualTo(1_234);
  }

  @Test
  void repeatedFailuresBackOffExponentiallyWithJitterUpToTheCap() {
    long[] base = {10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 1_800_000};
    for (int failures = 1; failures <= base.length; failures++) {
      for (int sample = 0; sample < 200; sample++) {
        Politeness.Wait wait = politeness.after(FetchOutcome.FAILED, -1, failures - 1, 0, NOW);
        assertThat(wait.consecutiveFailures()).isEqualTo(failures);
        assertThat(wait.nextAllowedMillis() - NOW).as("failure %s", failures)
            .isBetween(base[failures - 1] / 2, base[failures - 1]);
      }
    }
  }

  @Test
  void jitterSpreadsHostsThatFailedTogether() {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < 500; i++) {
      long wait = politeness.after(FetchOutcome.FAILED, -1, 3, 0, NOW).nextAllowedMillis() - NOW;
      min = Math.min(min, wait);
      max = Math.max(max, wait);
    }
    assertThat(max - min).as("spread of the 4th failure's wait, base 80 s").isGreaterThan(30_000);
  }

  @Test
  void hostIsSuspendedFromTheNthConsecutiveFailure() {
    assertThat(politeness.after(FetchOutcome.FAILED, -1, 9, 0, NOW)).isEqualTo(new Politeness.Wait(NOW + 21_600_000, 10));
    assertThat(politeness.after(FetchOutcome.FAILED, -1, 10, 0, NOW).nextAllowedMillis())
        .as("still failing after the suspension: suspended again").isEqualTo(NOW + 21_600_000);
    assertThat(politeness.after(FetchOutcome.retryAfter(Duration.ofSeconds(5)), -1, 9, 0, NOW).nextAllowedMillis())
        .as("429s count too").isEqualTo(NOW + 21_600_000);
  }

  @Test
  void backoffDoesNotOverflowAfterManyFailures() {
    assertThat(politeness.backoff(1)).isEqualTo(10_000);
    assertThat(politeness.backoff(64)).isEqualTo(1_800_000);
    assertThat(politeness.backoff(Integer.MAX_VALUE)).isEqualTo(1_800_000);
  }

  @Test
  void connectionLimitDefaultsToTheOptions() {
    assertThat(politeness.connectionLimit(HostState.NEW)).isEqualTo(1);
    assertThat(politeness.connectionLimit(HostState.NEW.withConnectionLimit(3))).isEqualTo(3);
  }

  @Test
  void startsSpacedByADelayGetATwentiethMoreUpToTenMillis() {
    assertThat(Politeness.startMargin(0)).isZero();
    assertThat(Politeness.startMargin(100)).isEqualTo(5);
    assertThat(Politeness.startMargin(200)).isEqualTo(10);
    assertThat(Politeness.startMargin(30_000)).isEqualTo(10);
  }

  @Test
  void aCrawlDelayAboveZeroLeavesOneConnection() {
    HostState three = HostState.NEW.withConnectionLimit(3);
    assertThat(politeness.connectionLimit(three.withCrawlDelay(1))).isEqualTo(1);
    assertThat(politeness.connectionLimit(three.withCrawlDelay(0))).as("Crawl-delay: 0 asks for no delay").isEqualTo(3);
  }

  @Test
  void aStartMovesTheHostOnByItsDelayOnlyWhenItMayHaveSeveralConnections() {
    HostState three = HostState.NEW.withConnectionLimit(3);
    assertThat(politeness.afterStart(three, 100, 5_000)).as("the delay and a twentieth of it").isEqualTo(6_010);
    assertThat(politeness.afterStart(three, 9_000, 5_000)).as("never earlier than it was").isEqualTo(9_000);
    assertThat(politeness.afterStart(HostState.NEW, 100, 5_000)).as("one connection: the end moves it").isEqualTo(100);
  }
}
