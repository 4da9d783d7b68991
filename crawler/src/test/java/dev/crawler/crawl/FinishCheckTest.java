package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FinishCheckTest {
  final FinishCheck check = new FinishCheck();

  @Test
  void finishedWhenNothingIsQueuedAndNoVisitIsUnderWay() {
    assertThat(check.nothingLeft(() -> 0)).isTrue();
    assertThat(check.nothingLeft(() -> 3)).isFalse();
  }

  @Test
  void notFinishedWhileAVisitIsUnderWayEvenIfTheCountSaysZero() {
    check.visitBegins();
    assertThat(check.nothingLeft(() -> 0)).isFalse();
    check.visitEnds();
    assertThat(check.nothingLeft(() -> 0)).isTrue();
  }

  @Test
  void aCountReadWhileAVisitBeganAndEndedIsNotTrusted() {
    // The race of a frontier with several groups: group 0 read (0), then a whole visit offers
    // its links to group 0 and completes its URL in group 1, then group 1 read (0).
    assertThat(check.nothingLeft(() -> {
      check.visitBegins();
      check.visitEnds();
      return 0;
    })).isFalse();
    assertThat(check.nothingLeft(() -> 0)).as("the next quiet read").isTrue();
  }

  @Test
  void aVisitStillUnderWayWhenTheCountEndsIsNotMissed() {
    assertThat(check.nothingLeft(() -> {
      check.visitBegins();
      return 0;
    })).isFalse();
  }
}
