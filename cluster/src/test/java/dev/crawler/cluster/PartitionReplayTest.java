package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A partition's state rebuilt from its records on a real broker: URLs seen, minus those done, queued. */
@ExtendWith(SharedBroker.class)
class PartitionReplayTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final int PARTITIONS = 4;
  static final int PARTITION = 2;

  @TempDir
  Path dir;
  Map<String, Object> client;
  /** Takes of 100 records, so a replay takes many. */
  Map<String, Object> replayClient;
  Admin admin;

  @BeforeEach
  void connect(SharedBroker.Address broker) {
    client = Map.of("bootstrap.servers", broker.bootstrapServers());
    replayClient = Map.of("bootstrap.servers", broker.bootstrapServers(), "max.poll.records", 100);
    admin = Admin.create(client);
  }

  @AfterEach
  void close() {
    admin.close();
  }

  @Test
  void aPartitionWithoutStateIsRebuiltAsItsUrlsMinusThoseDoneAndSurvivesAReopen() throws Exception {
    ClusterTopics topics = new ClusterTopics("rebuilt", PARTITIONS);
    topics.ensure(admin, (short) 1, TIMEOUT);
    List<AdmittedUrl> ours = PartitionFixtures.urlsOf(PARTITION, PARTITIONS, 12, 1_500);
    List<AdmittedUrl> others = PartitionFixtures.urlsOf(PARTITION + 1, PARTITIONS, 3, 200);
    // Each of ours once, a third of them twice (found on two pages), and every fifth one done.
    List<AdmittedUrl> produced = new ArrayList<>(ours);
    produced.addAll(others);
    produced.addAll(ours.subList(0, 500));
    List<DoneRecord> done = new ArrayList<>();
    List<String> notDone = new ArrayList<>();
    for (int i = 0; i < ours.size(); i++) {
      AdmittedUrl u = ours.get(i);
      if (i % 5 == 0) {
        done.add(DoneRecord.of(u.queueKey(), u.url().url(), i % 10 == 0 ? FetchOutcome.Kind.FETCHED
            : FetchOutcome.Kind.FAILED));
      } else {
        notDone.add(u.url().url());
      }
    }
    try (UrlTopicProducer urls = new UrlTopicProducer(topics, client, "lz4");
        DoneTopicProducer completions = new DoneTopicProducer(topics, client, "lz4")) {
      urls.take(produced);
      completions.take(done);
    }

    PartitionState.Options options = PartitionFixtures.options(10_000, false);
    try (PartitionState state = PartitionState.open(dir, PARTITION, options);
        PartitionReplay replay = new PartitionReplay(topics, replayClient)) {
      PartitionReplay.Replayed replayed = replay.catchUp(state);
      assertThat(replayed).isEqualTo(new PartitionReplay.Replayed(done.size(), 2_000, notDone.size()));
      assertThat(state.checkpoint()).isEqualTo(new PartitionCheckpoint(2_000, done.size()));
      assertThat(state.frontier().stats().queuedUrls()).isEqualTo(notDone.size());
    }

    try (PartitionState state = PartitionState.open(dir, PARTITION, options);
        PartitionReplay replay = new PartitionReplay(topics, replayClient)) {
      assertThat(state.heldBefore()).isTrue();
      assertThat(state.checkpoint()).isEqualTo(new PartitionCheckpoint(2_000, done.size()));
      assertThat(replay.catchUp(state)).isEqualTo(new PartitionReplay.Replayed(0, 0, 0));
      for (AdmittedUrl u : ours) {
        assertThat(state.seen().markSeen(u.url().url())).as(u.url().url()).isEqualTo(UrlSeenService.Verdict.SEEN);
      }
      assertThat(PartitionFixtures.drain(state.frontier())).containsExactlyInAnyOrderElementsOf(notDone);
    }
  }

  @Test
  void aStateWithACheckpointTakesOnlyTheRecordsAfterIt() throws Exception {
    ClusterTopics topics = new ClusterTopics("continued", PARTITIONS);
    topics.ensure(admin, (short) 1, TIMEOUT);
    List<AdmittedUrl> first = PartitionFixtures.urlsOf(PARTITION, PARTITIONS, 4, 300);
    PartitionState.Options options = PartitionFixtures.options(10_000, false);
    try (UrlTopicProducer urls = new UrlTopicProducer(topics, client, "zstd")) {
      urls.take(first);
      try (PartitionState state = PartitionState.open(dir, PARTITION, options);
          PartitionReplay replay = new PartitionReplay(topics, replayClient)) {
        assertThat(replay.catchUp(state).queued()).isEqualTo(300);
      }
      // Found again, and found new: only the new ones are queued.
      List<AdmittedUrl> again = new ArrayList<>(first.subList(0, 100));
      for (AdmittedUrl u : first.subList(0, 50)) {
        again.add(new AdmittedUrl(CrawlUrl.of(u.url().url() + "?next"), u.queueKey(), u.depth(), u.via(), 0));
      }
      urls.take(again);
    }
    try (PartitionState state = PartitionState.open(dir, PARTITION, options);
        PartitionReplay replay = new PartitionReplay(topics, replayClient)) {
      assertThat(replay.catchUp(state)).isEqualTo(new PartitionReplay.Replayed(0, 150, 50));
      assertThat(state.checkpoint().urls()).isEqualTo(450);
      assertThat(state.frontier().stats().queuedUrls()).isEqualTo(350);
    }
  }
}
