package dev.crawler.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.record.CrawlOutcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HostBoardTest {
  private static final Duration MS_10 = Duration.ofMillis(10);

  @Test
  void failuresInARowPutAHostInBackOffThenSuspendItAndOneSuccessClearsIt() {
    HostBoard board = new HostBoard(3);
    board.visited("a.example", "http://a.example/1", CrawlOutcome.TIMEOUT, 0, Duration.ofSeconds(30), "timeout");
    assertThat(board.board().backingOff()).extracting(HostActivity.HostFigures::host).containsExactly("a.example");
    board.visited("a.example", "http://a.example/2", CrawlOutcome.RETRY_LATER, 503, MS_10, null);
    board.visited("a.example", "http://a.example/3", CrawlOutcome.CONNECTION_REFUSED, 0, MS_10, "refused");
    HostBoard.Board now = board.board();
    assertThat(now.backingOff()).isEmpty();
    assertThat(now.suspended()).singleElement().satisfies(h -> {
      assertThat(h.failuresInARow()).isEqualTo(3);
      assertThat(h.lastError()).isEqualTo("connection_refused: refused");
    });
    // Not a request, not a failure: robots.txt said no. The run goes on until a page is fetched.
    board.visited("a.example", "http://a.example/4", CrawlOutcome.ROBOTS_DENIED, 0, null, null);
    assertThat(board.board().suspended()).hasSize(1);
    board.visited("a.example", "http://a.example/5", CrawlOutcome.FETCHED, 200, MS_10, null);
    assertThat(board.board().suspended()).isEmpty();
    assertThat(board.board().backingOff()).isEmpty();
  }

  @Test
  void listsAreShortAndOrderedAndErrorsNewestFirstAndBounded() {
    HostBoard board = new HostBoard(10);
    for (int host = 0; host < 30; host++) {
      for (int page = 0; page <= host; page++) {
        board.visited("h" + host, "http://h" + host + "/" + page, CrawlOutcome.FETCHED, 200,
            Duration.ofMillis(host), null);
      }
    }
    for (int i = 0; i < HostBoard.ERRORS + 5; i++) {
      board.visited("e", "http://e/" + i, CrawlOutcome.FETCHED, 500, MS_10, null);
    }
    HostBoard.Board now = board.board();
    assertThat(now.busiest()).hasSize(HostBoard.LISTED).first().extracting(HostActivity.HostFigures::host)
        .isEqualTo("e");
    assertThat(now.busiest().get(1).host()).isEqualTo("h29");
    assertThat(now.slowest()).hasSize(HostBoard.LISTED).first().extracting(HostActivity.HostFigures::host)
        .isEqualTo("h29");
    assertThat(now.slowest()).extracting(HostActivity.HostFigures::host).doesNotContain("h0", "h1")
        .as("a host needs %s fetches to be called slow", HostBoard.SLOW_AFTER_FETCHES);
    assertThat(now.latestErrors()).hasSize(HostBoard.ERRORS);
    assertThat(now.latestErrors().get(0).url()).isEqualTo("http://e/" + (HostBoard.ERRORS + 4));
  }
}
