package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.AdmittedUrl;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A given partition's done records read on a thread of their own: to their end, or until cancelled. */
@ExtendWith(SharedBroker.class)
class DoneCatchUpTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  @Test
  void readsEveryDoneRecordIntoTheStateThenSaysItIsCaughtUp(SharedBroker.Address broker) throws Exception {
    Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers(), "max.poll.records", 50);
    ClusterTopics topics = new ClusterTopics("catch-up", 2);
    try (Admin admin = Admin.create(client)) {
      topics.ensure(admin, (short) 1, TIMEOUT);
    }
    List<AdmittedUrl> urls = PartitionFixtures.urlsOf(1, 2, 4, 400);
    try (DoneTopicProducer done = new DoneTopicProducer(topics, client, "lz4")) {
      done.take(urls.stream().map(u -> DoneRecord.of(u.queueKey(), u.url().url(), FetchOutcome.Kind.FETCHED)).toList());
    }
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(10_000, false));
        PartitionReplay replay = new PartitionReplay(topics, client)) {
      DoneCatchUp catchUp = new DoneCatchUp(state);
      Thread thread = Thread.ofPlatform().start(() -> catchUp.run(replay));
      catchUp.caughtUp().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      thread.join(TIMEOUT.toMillis());
      assertThat(state.checkpoint().done()).isEqualTo(400);
      assertThat(urls).allMatch(u -> state.seen().markSeen(u.url().url()) == UrlSeenService.Verdict.SEEN);
      assertThat(state.takeUrls(urls, 400)).as("URLs queued after their done records").isZero();
    }
  }

  /** Brokers out of reach: it keeps trying and the partition is never ready; a cancel ends it within a try's patience. */
  @Test
  void triesAgainWhileTheBrokersAreOutOfReachAndACancelEndsIt() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Map<String, Object> client = Map.of("bootstrap.servers", "127.0.0.1:" + closedPort);
    try (PartitionState state = PartitionState.open(dir, 0, PartitionFixtures.options(1_000, false));
        PartitionReplay replay = new PartitionReplay(new ClusterTopics("unreachable", 2), client, Duration.ofSeconds(1))) {
      DoneCatchUp catchUp = new DoneCatchUp(state);
      Thread thread = Thread.ofPlatform().start(() -> catchUp.run(replay));
      Thread.sleep(2_500);   // past a try or two
      assertThat(catchUp.done()).isFalse();
      assertThat(thread.isAlive()).as("still trying").isTrue();
      catchUp.cancel();
      assertThat(thread.join(Duration.ofSeconds(5))).as("ended by the cancel").isTrue();
      assertThat(catchUp.done()).as("a cancelled catch-up never says it caught up").isFalse();
      assertThat(state.checkpoint()).isEqualTo(PartitionCheckpoint.START);
    }
  }
}
