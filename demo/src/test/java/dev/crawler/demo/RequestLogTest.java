package dev.crawler.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.demo.RequestLog.Request;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log's arithmetic on hand-made requests; DemoSiteTest drives it over HTTP. */
class RequestLogTest {
  private static final long MS = 1_000_000L;

  private final RequestLog log = new RequestLog(8080);

  @Test
  void countsRequestsByAbsoluteUrl() {
    log.record(new Request("a.example.com", "/", 0, 1, 200));
    log.record(new Request("a.example.com", "/", 2, 3, 200));
    log.record(new Request("b.example.com", "/x?y=1", 4, 5, 404));
    assertThat(log.countsByUrl()).isEqualTo(Map.of(
        "http://a.example.com:8080/", 2L,
        "http://b.example.com:8080/x?y=1", 1L));
    assertThat(log.size()).isEqualTo(3);
  }

  @Test
  void requestsThatOverlapCountAsConcurrentAndTouchingOnesDoNot() {
    // a: [0,10) [5,15) [8,20) overlap three deep at 8-10; [20,30) starts as [8,20) ends.
    log.record(new Request("a", "/1", 0, 10 * MS, 200));
    log.record(new Request("a", "/2", 5 * MS, 15 * MS, 200));
    log.record(new Request("a", "/3", 8 * MS, 20 * MS, 200));
    log.record(new Request("a", "/4", 20 * MS, 30 * MS, 200));
    log.record(new Request("b", "/1", 0, 100 * MS, 200));
    assertThat(log.maxConcurrent("a")).isEqualTo(3);
    assertThat(log.maxConcurrent("b")).isEqualTo(1);
    assertThat(log.maxConcurrent("nobody")).isZero();
  }

  @Test
  void theGapIsFromTheLatestEndToTheNextStartAndZeroWhenRequestsOverlap() {
    // A long request [0,50) covers a short one [10,20): the next start, 70, rests 20 after 50, not 50 after 20.
    log.record(new Request("a", "/1", 0, 50 * MS, 200));
    log.record(new Request("a", "/2", 10 * MS, 20 * MS, 200));
    log.record(new Request("a", "/3", 70 * MS, 80 * MS, 200));
    log.record(new Request("a", "/4", 110 * MS, 120 * MS, 200));
    log.record(new Request("b", "/1", 0, 10 * MS, 200));
    log.record(new Request("b", "/2", 35 * MS, 40 * MS, 200));
    assertThat(log.minGap("a")).isEqualTo(Duration.ZERO);
    assertThat(log.minGap("b")).isEqualTo(Duration.ofMillis(25));

    RequestLog sequential = new RequestLog(8080);
    sequential.record(new Request("a", "/3", 70 * MS, 80 * MS, 200));
    sequential.record(new Request("a", "/1", 0, 50 * MS, 200));
    sequential.record(new Request("a", "/4", 110 * MS, 120 * MS, 200));
    assertThat(sequential.minGap("a")).isEqualTo(Duration.ofMillis(20));
  }

  @Test
  void aGapNeedsTwoRequests() {
    log.record(new Request("a", "/1", 0, 1, 200));
    assertThatThrownBy(() -> log.minGap("a")).isInstanceOf(IllegalStateException.class)
        .hasMessage("a had 1 request(s); a gap needs two");
  }

  @Test
  void timesNearTheEndsOfTheNanoClockDoNotOverflow() {
    long near = Long.MAX_VALUE - 100 * MS;
    log.record(new Request("a", "/1", near, near + 10 * MS, 200));
    log.record(new Request("a", "/2", near + 5 * MS, near + 20 * MS, 200));
    assertThat(log.maxConcurrent("a")).isEqualTo(2);
  }
}
