package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.AdmittedUrl;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A given partition's done records read on a thread of their own: to their end, or until cancelled. */
@ExtendWith(SharedBroker.class)
class DoneCatchUpTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir
  Path dir;
  ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() throws InterruptedException {
    thread.shutdown();
    thread.awaitTermination(10, TimeUnit.SECONDS);
  }

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
      DoneCatchUp catchUp = new DoneCatchUp(state, replay, thread);
      catchUp.start();
      catchUp.caughtUp().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
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
      DoneCatchUp catchUp = new DoneCatchUp(state, replay, thread);
      catchUp.start();
      Thread.sleep(3_500);   // past a try or two
      assertThat(catchUp.caughtUp()).as("still trying").isNotDone();
      long cancelling = System.nanoTime();
      catchUp.cancel();
      assertThat(Duration.ofNanos(System.nanoTime() - cancelling)).as("a cancel ends the try under way, if any")
          .isLessThan(Duration.ofSeconds(5));
      Thread.sleep(1_500);
      assertThat(catchUp.caughtUp()).as("a cancelled catch-up never says it caught up").isNotDone();
      assertThat(state.checkpoint()).isEqualTo(PartitionCheckpoint.START);
    }
  }

  /** A record it cannot read is not the brokers' passing failure: it fails, once, rather than try for ever. */
  @Test
  void aRecordItCannotReadFailsTheCatchUp(SharedBroker.Address broker) throws Exception {
    Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
    ClusterTopics topics = new ClusterTopics("catch-up-torn", 2);
    try (Admin admin = Admin.create(client)) {
      topics.ensure(admin, (short) 1, TIMEOUT);
    }
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(client, new StringSerializer(),
        new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.done(), 1, "h.example.com", new byte[] {9, 9, 9})).get();
    }
    try (PartitionState state = PartitionState.open(dir, 1, PartitionFixtures.options(1_000, false));
        PartitionReplay replay = new PartitionReplay(topics, client)) {
      DoneCatchUp catchUp = new DoneCatchUp(state, replay, thread);
      catchUp.start();
      assertThatThrownBy(() -> catchUp.caughtUp().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
          .hasMessageContaining("is not a done record");
      assertThat(catchUp.done()).isFalse();
    }
  }
}
