package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the frontier in a child JVM ({@link KillWorker}), kills it with SIGKILL in the middle
 * of a stream of offers and completions, reopens the store, and checks that every offered
 * URL was either completed or is still queued, and that only URLs in flight at the kill
 * are handed out a second time (and, with deferred completions, at most the completions still
 * unwritten). Every URL still queued keeps the via and redirect hops it was
 * offered with.
 */
class FrontierKillTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13, 14, 15, 16})
  void everyOfferedUrlIsCompletedOrStillQueuedAfterSigkill(long seed) throws Exception {
    Path store = dir.resolve("frontier");
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-cp",
        System.getProperty("java.class.path"), KillWorker.class.getName(), store.toString(), Long.toString(seed))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int killAfter = 3_000 + new Random(seed).nextInt(10_000);
    Set<String> offered = new HashSet<>();
    Set<String> removed = new HashSet<>();
    Set<String> leased = new HashSet<>();
    int lines = 0;
    Map<String, Character> lastEvent = new HashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      String line;
      while ((line = in.readLine()) != null) {
        if (line.length() < 3 || !line.endsWith("|")) {
          continue;   // cut short by the kill
        }
        String url = line.substring(2, line.length() - 1);
        lastEvent.put(url, line.charAt(0));
        switch (line.charAt(0)) {
          case 'O' -> offered.add(url);
          case 'L' -> leased.add(url);
          case 'D' -> removed.add(url);
          case 'R' -> { }
          default -> throw new AssertionError("unexpected line from the worker: " + line);
        }
        if (++lines == killAfter || System.nanoTime() > deadline) {
          // SIGKILL on Linux: no shutdown hook, no close. Through the handle, so the pipe stays
          // open and the lines the child wrote before it died are still read.
          child.toHandle().destroyForcibly();
        }
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(removed).as("the worker completed URLs before the kill").isNotEmpty();

    ManualClock clock = new ManualClock(System.currentTimeMillis());
    List<String> drained;
    try (Frontier f = Frontier.open(store, FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO)
        .partitions(KillWorker.partitionsFor(seed)).deferredCompletions(KillWorker.deferredCompletionsFor(seed))
        .build())) {
      long queued = f.stats().queuedUrls();
      List<Lease> leases = FrontierTest.drainLeasesAdvancingClock(f, clock, 3);
      assertThat(leases).as("the queued count after reopen").hasSize((int) queued);
      for (Lease l : leases) {
        assertThat(l.via()).as("via of %s", l.url()).isEqualTo(KillWorker.viaOf(id(l.url())));
        assertThat(l.redirectHops()).as("hops of %s", l.url()).isEqualTo(KillWorker.redirectHopsOf(id(l.url())));
      }
      drained = leases.stream().map(Lease::url).toList();
    }
    Set<String> queuedAfter = new HashSet<>(drained);
    assertThat(queuedAfter).as("no URL is queued twice").hasSize(drained.size());

    // A completion under way at the kill may be durable without its line: such a URL was
    // leased and is gone. Two fetcher threads: at most two.
    Set<String> gone = new HashSet<>(offered);
    gone.removeAll(removed);
    gone.removeAll(queuedAfter);
    assertThat(leased).as("offered, never reported complete, not queued after the kill, and never leased")
        .containsAll(gone);
    assertThat(gone).as("completions under way at the kill").hasSizeLessThanOrEqualTo(2);

    Set<String> again = new HashSet<>(queuedAfter);
    again.retainAll(removed);
    int deferred = KillWorker.deferredCompletionsFor(seed);
    if (deferred == 0) {
      assertThat(again).as("completed before the kill, yet handed out again").isEmpty();
    } else {
      // Deferred: a group's open batch holds fewer than `deferred` completions when one returns
      // unwritten, one more staged by the other thread, and as many in a write under way.
      int groups = Math.min(KillWorker.partitionsFor(seed), Frontier.MAX_GROUPS);
      assertThat(again).as("completions returned, unwritten at the kill").hasSizeLessThanOrEqualTo(
          groups * (2 * deferred + 2));
    }

    // Handed out before the kill and queued after it: only leases not completed, or given
    // back by RETRY_AFTER, are handed out again.
    long inFlightAtKill = lastEvent.values().stream().filter(e -> e == 'L').count();
    assertThat(inFlightAtKill).as("leases not completed at the kill (two fetcher threads)").isLessThanOrEqualTo(2);
    for (String url : queuedAfter) {
      assertThat(lastEvent.getOrDefault(url, 'O')).as("last event of %s before the kill", url)
          .isIn(deferred == 0 ? List.of('O', 'L', 'R') : List.of('O', 'L', 'R', 'D'));
    }

    // Offers that were under way at the kill may or may not be durable; nothing else appears.
    int maxOfferedId = offered.stream().mapToInt(FrontierKillTest::id).max().orElse(-1);
    for (String url : queuedAfter) {
      assertThat(offered.contains(url) || id(url) > maxOfferedId).as("%s was never offered", url).isTrue();
    }
  }

  static int id(String url) {
    return Integer.parseInt(url.substring(url.lastIndexOf('/') + 1));
  }
}
