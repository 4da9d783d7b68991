package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deferred completions through a real kill -9 ({@link DeferredKillWorker}, one thread, one
 * group): what a kill loses is the completions written by no later write, at most N of them and
 * the most recent ones; and the deferred writer writes them without any further call.
 */
class DeferredCompletionsKillTest {
  @TempDir Path dir;

  @Test
  void killLosesOnlyTheLastUnwrittenCompletionsAtMostN() throws Exception {
    List<String> completed = runAndKill("unwritten");
    List<String> back = completedHandedOutAgain(completed);
    assertThat(back).as("completions left unwritten (95 is no multiple of N + 1)").isNotEmpty()
        .hasSizeLessThanOrEqualTo(DeferredKillWorker.DEFERRED);
    assertThat(back).as("the most recent ones, in order")
        .isEqualTo(completed.subList(completed.size() - back.size(), completed.size()));
  }

  @Test
  void deferredWriterWritesThemBeforeAKill() throws Exception {
    List<String> completed = runAndKill("written");
    assertThat(completedHandedOutAgain(completed)).as("written by the deferred writer within 2 s").isEmpty();
  }

  /** Runs the worker in {@code mode} and kills it when it is ready; returns the URLs it completed, in order. */
  private List<String> runAndKill(String mode) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-cp",
        System.getProperty("java.class.path"), DeferredKillWorker.class.getName(), dir.resolve("f").toString(), mode)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> completed = new ArrayList<>();
    boolean ready = false;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("D ")) {
          completed.add(line.substring(2));
        } else if (line.equals("READY")) {
          ready = true;
          child.toHandle().destroyForcibly();   // SIGKILL: no close, no shutdown hook
        }
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(ready).as("the worker got to READY").isTrue();
    assertThat(completed).hasSize(DeferredKillWorker.COMPLETED);
    return completed;
  }

  /** URLs reported complete before the kill and queued after it, in the order they were completed. */
  private List<String> completedHandedOutAgain(List<String> completed) throws Exception {
    Set<String> queued = new HashSet<>();
    ManualClock clock = new ManualClock(System.currentTimeMillis());
    try (Frontier f = Frontier.open(dir.resolve("f"), DeferredKillWorker.options().toBuilder().clock(clock).build())) {
      queued.addAll(FrontierTest.drainAdvancingClock(f, clock, 3));
    }
    assertThat(queued).as("every URL never completed is still queued")
        .hasSizeGreaterThanOrEqualTo(DeferredKillWorker.HOSTS - DeferredKillWorker.COMPLETED);
    return completed.stream().filter(queued::contains).toList();
  }
}
