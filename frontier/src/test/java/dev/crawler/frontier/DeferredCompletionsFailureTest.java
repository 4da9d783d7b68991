package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.internal.FailingWrites;
import dev.crawler.frontier.internal.FrontierStore;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A completion that returned unwritten is lost when the write that should take it fails: the
 * close says so instead of passing for a clean one, whether the deferred writer met the failure
 * first or the close's own final write did.
 */
class DeferredCompletionsFailureTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(1_000_000);

  FrontierOptions options() {
    return FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO).deferredCompletions(100).build();
  }

  /** A frontier whose writes can be made to fail, with one URL of a.com leased. */
  private record Leased(Frontier frontier, FailingWrites disk, Lease lease) {}

  private Leased openAndLease(Duration writerInterval) throws Exception {
    Frontier f = Frontier.open(dir, options(), writerInterval);
    FailingWrites disk = FailingWrites.in(onlyGroupStore(f));
    f.offer(FrontierTest.urls("a.com", 0, 2));
    return new Leased(f, disk, FrontierTest.take(f));
  }

  @Test
  void closeThrowsWhenItsFinalWriteFails() throws Exception {
    Leased leased = openAndLease(Duration.ofDays(1));
    Frontier f = leased.frontier();
    Lease lease = leased.lease();
    f.complete(lease, FetchOutcome.FETCHED);   // returns unwritten
    leased.disk().start();
    assertThatThrownBy(f::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("completions that returned unwritten (deferredCompletions) are lost");
    assertThat(handedOutAfterReopen()).as("the lost completion's URL comes back").contains(lease.url());
  }

  @Test
  void closeThrowsAfterTheDeferredWriterMetAFailedWrite() throws Exception {
    Leased leased = openAndLease(Duration.ofMillis(5));
    Frontier f = leased.frontier();
    Lease lease = leased.lease();
    leased.disk().start();
    f.complete(lease, FetchOutcome.FETCHED);   // returns unwritten; the writer's write fails
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline && !failed(f)) {
      Thread.sleep(5);
    }
    assertThatThrownBy(f::stats).as("every later call reports the failure").hasMessageContaining("failed write");
    assertThatThrownBy(f::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("No space left on device").hasMessageContaining("are lost");
    assertThat(handedOutAfterReopen()).contains(lease.url());
  }

  private static boolean failed(Frontier f) {
    try {
      f.stats();
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  private java.util.List<String> handedOutAfterReopen() throws Exception {
    try (Frontier again = Frontier.open(dir, options())) {
      clock.advance(Duration.ofDays(1));
      return FrontierTest.drain(again);
    }
  }

  /** The one group's store of a 1-partition frontier. */
  @SuppressWarnings("unchecked")
  private static FrontierStore onlyGroupStore(Frontier f) throws ReflectiveOperationException {
    Field stores = Frontier.class.getDeclaredField("groupStores");
    stores.setAccessible(true);
    return ((java.util.List<FrontierStore>) stores.get(f)).get(0);
  }
}
