package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.intake.AdmittedUrl;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition's state killed with SIGKILL while it takes records: reopened, its checkpoint claims
 * no more than it holds, and a replay from the checkpoint loses no URL.
 */
@ExtendWith(SharedBroker.class)
class PartitionStateKillTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final int URLS = 6_000;
  static final int KILL_AFTER = 1_000;

  @TempDir
  Path dir;

  @Test
  void aStateKilledMidTakeClaimsNoMoreThanItHoldsAndItsReplayLosesNothing(SharedBroker.Address broker)
      throws Exception {
    Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
    ClusterTopics topics = new ClusterTopics("killed", 2);
    try (Admin admin = Admin.create(client)) {
      topics.ensure(admin, (short) 1, TIMEOUT);
    }
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(1, 2, 20, URLS);
    Path state = dir.resolve("partition-1");
    Process child = startChild(state, broker.bootstrapServers(), topics);
    int sent = 0;
    try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "lz4")) {
      // URLs keep coming while the child takes them, so the kill finds it at work, not idle at the log's end.
      while (sent < URLS) {
        producer.take(urls.subList(sent, sent + 100));
        sent += 100;
        if (child.isAlive() && tookEnough(state)) {
          kill(child);
        }
        Thread.sleep(20);
      }
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (child.isAlive() && !tookEnough(state) && System.nanoTime() < deadline) {
        Thread.sleep(5);   // a child slower than the producer: killed while it still has records to take
      }
      kill(child);
    } finally {
      child.destroyForcibly();
    }
    assertThat(child.exitValue()).as("the child was killed, not ended").isNotZero();

    try (PartitionState reopened = PartitionState.open(state, 1, PartitionFixtures.options(100_000, false));
        PartitionReplay replay = new PartitionReplay(topics, client)) {
      long checkpoint = reopened.checkpoint().urls();
      assertThat(checkpoint).isGreaterThanOrEqualTo(KILL_AFTER).isLessThan(URLS);
      List<String> before = PartitionFixtures.drain(reopened.frontier());
      Set<String> held = new HashSet<>(before);
      for (AdmittedUrl u : urls.subList(0, (int) checkpoint)) {
        assertThat(held).as("a URL before the checkpoint (%s)", checkpoint).contains(u.url().url());
      }
      replay.catchUp(reopened);
      List<String> after = PartitionFixtures.drain(reopened.frontier());
      Set<String> all = new HashSet<>(before);
      all.addAll(after);
      assertThat(all).containsExactlyInAnyOrderElementsOf(urls.stream().map(u -> u.url().url()).toList());
      // Queued twice at most: the take in flight at the kill, queued and not yet recorded as seen.
      assertThat(before.size() + after.size() - all.size()).isLessThanOrEqualTo(PartitionStateChild.TAKE);
      for (AdmittedUrl u : urls) {
        assertThat(reopened.seen().markSeen(u.url().url())).isEqualTo(UrlSeenService.Verdict.SEEN);
      }
    }
  }

  private static boolean tookEnough(Path state) throws java.io.IOException {
    return PartitionCheckpoint.read(state, 1).map(c -> c.urls() >= KILL_AFTER).orElse(false);
  }

  private static void kill(Process child) throws InterruptedException {
    child.destroyForcibly();   // SIGKILL
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  private static Process startChild(Path state, String bootstrap, ClusterTopics topics) throws Exception {
    Files.createDirectories(state.getParent());
    Path log = state.getParent().resolve("child.log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        PartitionStateChild.class.getName(),
        state.toString(), bootstrap, topics.crawl(), Integer.toString(topics.partitions()), "1"));
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Optional<String> line = Optional.ofNullable(out.readLine());
    if (!line.equals(Optional.of(PartitionStateChild.READY))) {
      process.destroyForcibly();
      throw new AssertionError("the child did not open its state; its log: " + Files.readString(log));
    }
    return process;
  }
}
