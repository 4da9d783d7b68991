package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many fetcher threads completing at once, whose completions are written together (group
 * commit): each completion is durable when it returns, and a close in the middle loses none.
 */
class FrontierConcurrencyTest {
  static final int HOSTS = 300;
  static final int URLS_PER_HOST = 4;
  static final int FETCHERS = 6;

  @TempDir Path dir;

  /** With 4 partitions, each its own group: threads lease, stage and write in several groups at once. */
  static FrontierOptions options(int partitions) {
    // A working set smaller than the hosts, so refills read hosts and their queue heads while
    // other threads' completions are staged and not yet written.
    return FrontierOptions.builder().defaultDelay(Duration.ZERO).workingSetHosts(40).partitions(partitions).build();
  }

  static List<String> offerAll(Frontier f) {
    List<String> offered = new ArrayList<>();
    for (int h = 0; h < HOSTS; h++) {
      List<FrontierEntry> batch = new ArrayList<>();
      for (int i = 0; i < URLS_PER_HOST; i++) {
        batch.add(FrontierEntry.of("https://h" + h + ".com/" + i, "h" + h + ".com", 1));
      }
      f.offer(batch);
      batch.forEach(e -> offered.add(e.url()));
    }
    return offered;
  }

  /** Leases and completes until the frontier is empty or closed; returns the URLs whose completion returned. */
  static Set<String> fetchConcurrently(Frontier f, int stopAfter) throws InterruptedException {
    Set<String> completed = ConcurrentHashMap.newKeySet();
    Set<String> handedOut = ConcurrentHashMap.newKeySet();
    AtomicInteger twice = new AtomicInteger();
    List<Thread> fetchers = new ArrayList<>();
    for (int t = 0; t < FETCHERS; t++) {
      Thread fetcher = new Thread(() -> {
        try {
          while (completed.size() < stopAfter) {
            Optional<Lease> lease = f.next(Duration.ofMillis(200));
            if (lease.isEmpty()) {
              return;
            }
            if (!handedOut.add(lease.get().url())) {
              twice.incrementAndGet();
            }
            f.complete(lease.get(), FetchOutcome.FETCHED);
            completed.add(lease.get().url());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
          // closed under us: this lease was not completed
        }
      });
      fetchers.add(fetcher);
      fetcher.start();
    }
    for (Thread fetcher : fetchers) {
      fetcher.join();
    }
    assertThat(twice).as("URLs handed out twice").hasValue(0);
    return completed;
  }

  static Set<String> drain(Frontier f) throws InterruptedException {
    Set<String> drained = new HashSet<>();
    for (Optional<Lease> l = f.next(Duration.ZERO); l.isPresent(); l = f.next(Duration.ZERO)) {
      drained.add(l.get().url());
      f.complete(l.get(), FetchOutcome.FETCHED);
    }
    return drained;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void completionsFromManyThreadsAreEachDurableAndNoneIsHandedOutTwice(int partitions) throws Exception {
    List<String> offered;
    Set<String> completed;
    try (Frontier f = Frontier.open(dir, options(partitions))) {
      offered = offerAll(f);
      completed = fetchConcurrently(f, Integer.MAX_VALUE);
      assertThat(f.invariantsHold()).isTrue();
      // Never an empty write: at most one per offer, completion and deactivation, fewer when grouped.
      assertThat(f.storeWrites()).as("database writes").isLessThanOrEqualTo(HOSTS + offered.size() + HOSTS);
    }
    assertThat(completed).containsExactlyInAnyOrderElementsOf(offered);
    try (Frontier f = Frontier.open(dir, options(partitions))) {
      assertThat(f.stats().queuedUrls()).isZero();
      assertThat(f.stats().hosts()).isZero();
      assertThat(f.stats().fetched()).isEqualTo(offered.size());
      assertThat(f.next(Duration.ZERO)).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void closeWhileThreadsCompleteLosesNoUrlAndBringsBackNoCompletedOne(int partitions) throws Exception {
    List<String> offered;
    Set<String> completed;
    Frontier f = Frontier.open(dir, options(partitions));
    offered = offerAll(f);
    Thread closer = new Thread(() -> {
      while (f.stats().fetched() < offered.size() / 3) {
        Thread.onSpinWait();
      }
      f.close();
    });
    closer.start();
    completed = fetchConcurrently(f, Integer.MAX_VALUE);
    closer.join();

    try (Frontier reopened = Frontier.open(dir, options(partitions))) {
      FrontierStats stats = reopened.stats();
      assertThat(stats.fetched() + stats.queuedUrls()).isEqualTo(offered.size());
      assertThat(stats.fetched()).isEqualTo(completed.size());
      assertThat(reopened.invariantsHold()).isTrue();
      Set<String> rest = drain(reopened);
      assertThat(rest).doesNotContainAnyElementsOf(completed);
      Set<String> all = new HashSet<>(rest);
      all.addAll(completed);
      // A completion staged before the close is written by it, so its caller returns normally.
      assertThat(all).containsExactlyInAnyOrderElementsOf(offered);
      assertThat(reopened.stats().queuedUrls()).isZero();
    }
  }
}
