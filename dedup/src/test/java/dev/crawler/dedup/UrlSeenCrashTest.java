package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.dedup.UrlSeenService.FalsePositivePolicy;
import dev.crawler.dedup.UrlSeenService.Recovery;
import dev.crawler.dedup.UrlSeenService.Verdict;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Kills a real process (SIGKILL) in the middle of marking and checks that no NEW answer is forgotten. */
class UrlSeenCrashTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void noUrlAnsweredNewIsForgottenOrAnsweredNewAgainAfterAKill(FalsePositivePolicy policy) throws Exception {
    Set<Integer> firstRun = runAndKill(policy, 20_000, Recovery.FRESH);
    Set<Integer> secondRun = runAndKill(policy, 45_000, Recovery.REBUILT);
    // The second run marks from 0 again: what the first run answered NEW must now be SEEN.
    Set<Integer> twice = new HashSet<>(firstRun);
    twice.retainAll(secondRun);
    assertThat(twice).as("URLs answered NEW in both runs").isEmpty();

    try (UrlSeenService seen = UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(200_000)
        .policy(policy).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.REBUILT);
      Set<Integer> all = new HashSet<>(firstRun);
      all.addAll(secondRun);
      for (int i : all) {
        assertThat(seen.markSeenAll(List.of(UrlFingerprint.of(SeenChild.url(i))))).containsExactly(Verdict.SEEN);
      }
    }
  }

  /** Starts a child, reads its NEW answers until at least {@code atLeast}, kills it with SIGKILL. */
  private Set<Integer> runAndKill(FalsePositivePolicy policy, int atLeast, Recovery expectedRecovery)
      throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
        "-Dlogback.configurationFile=none", "-cp", System.getProperty("java.class.path"),
        SeenChild.class.getName(), dir.toString(), policy.name())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    Set<Integer> answeredNew = new HashSet<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
        if (line.startsWith("READY ")) {
          assertThat(line).isEqualTo("READY " + expectedRecovery);
        } else if (line.startsWith("NEW ")) {
          answeredNew.add(Integer.parseInt(line.substring(4)));
          if (answeredNew.size() >= atLeast) {
            break;
          }
        }
      }
    } finally {
      child.destroyForcibly();   // SIGKILL on Linux: no shutdown hooks, no close
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(answeredNew).as("NEW answers before the kill").hasSizeGreaterThanOrEqualTo(atLeast);
    return answeredNew;
  }

  @ParameterizedTest
  @EnumSource(FalsePositivePolicy.class)
  void aBatchTakenButNotRecordedWhenTheProcessDiesIsNewAgainAfterTheRestart(FalsePositivePolicy policy)
      throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
        "-Dlogback.configurationFile=none", "-cp", System.getProperty("java.class.path"),
        SeenChild.class.getName(), dir.toString(), policy.name(), "1000")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("TAKEN 25");
    try (UrlSeenService seen = UrlSeenService.open(UrlSeenService.Options.builder(dir).expectedUrls(200_000)
        .policy(policy).build())) {
      assertThat(seen.recovery()).isEqualTo(Recovery.REBUILT);
      assertThat(seen.markSeenAll(SeenChild.batch(0))).as("recorded before the halt").containsOnly(Verdict.SEEN);
      assertThat(seen.markSeenAll(SeenChild.batch(975))).as("recorded before the halt").containsOnly(Verdict.SEEN);
      assertThat(seen.markSeenAll(SeenChild.batch(1000))).as("taken, not recorded").containsOnly(Verdict.NEW);
    }
  }
}
