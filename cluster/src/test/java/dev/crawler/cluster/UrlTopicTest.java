package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.cluster.broker.SharedBroker;
import dev.crawler.frontier.Partitions;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Admitted URLs through a real broker: produced by queue key, taken by their partition's one owner. */
@ExtendWith(SharedBroker.class)
class UrlTopicTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** How long a test waits for the group or the records before it fails; never a measure of speed. */
  static final Duration PATIENCE = Duration.ofSeconds(90);

  Map<String, Object> client;
  Admin admin;
  final List<UrlTopicConsumer> consumers = new ArrayList<>();
  final List<Thread> threads = new ArrayList<>();
  final List<String> groups = new ArrayList<>();

  @BeforeEach
  void connect(SharedBroker.Address broker) {
    client = Map.of("bootstrap.servers", broker.bootstrapServers());
    admin = Admin.create(client);
  }

  @AfterEach
  void stop() throws InterruptedException {
    // One at a time, each once the group has settled: a member that closes while the partitions
    // of one that left are on their way to it fails that reconciliation, and logs it as an error.
    for (int i = consumers.size() - 1; i >= 0; i--) {
      consumers.get(i).stop();
      threads.get(i).join(TIMEOUT.toMillis());
      if (i > 0) {
        String group = groups.get(i);
        await("group " + group + " settled", () -> settled(group));
      }
    }
    admin.close();
  }

  /** Every member of the group holds what the broker means it to hold. */
  private boolean settled(String group) {
    try {
      var description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
      return description.members().stream()
          .allMatch(m -> m.targetAssignment().map(t -> t.equals(m.assignment())).orElse(true));
    } catch (Exception e) {
      return false;
    }
  }

  @Test
  void eachUrlLandsInItsFrontierPartitionAndIsTakenOnceByThatPartitionsOneOwner() throws Exception {
    ClusterTopics topics = new ClusterTopics("landing", 8);
    topics.ensure(admin, (short) 1, TIMEOUT);
    ConcurrentMap<Integer, String> holders = RecordingOwner.holders();
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    // a takes a second to let each partition go: b must not be given it meanwhile.
    RecordingOwner a = new RecordingOwner("a", holders, Map.of(), events).revokingIn(1_000);
    RecordingOwner b = new RecordingOwner("b", holders, Map.of(), events);

    start(topics, "node-a", a);
    await("a owns every partition", () -> a.owned().size() == 8);
    start(topics, "node-b", b);
    await("the partitions are split between a and b",
        () -> !b.owned().isEmpty() && !a.owned().isEmpty() && a.owned().size() + b.owned().size() == 8);

    List<AdmittedUrl> produced = pages(40, 30, 150);
    try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "lz4")) {
      for (int page = 0; page < 40; page++) {
        assertThat(producer.take(produced.subList(page * 30, page * 30 + 30))).isEqualTo(30);
      }
    }
    await("every URL is taken", () -> a.taken().size() + b.taken().size() >= produced.size());

    List<RecordingOwner.Taken> taken = new ArrayList<>(a.taken());
    taken.addAll(b.taken());
    assertThat(taken).allSatisfy(t -> assertThat(t.partition())
        .as("partition of %s", t.url().queueKey()).isEqualTo(Partitions.of(t.url().queueKey(), 8)));
    assertThat(taken.stream().map(t -> describe(t.url())).toList())
        .containsExactlyInAnyOrderElementsOf(produced.stream().map(UrlTopicTest::describe).toList());
    assertThat(partitionsOf(a.taken())).doesNotContainAnyElementsOf(partitionsOf(b.taken()));
    assertThat(a.violations()).isEmpty();
    assertThat(b.violations()).isEmpty();
    // Every partition b took was revoked from a first: the group waits for the old owner's revocation to return.
    for (int p : b.owned()) {
      assertThat(events.indexOf("a revoked " + p)).as("a revoked %s before b got it", p)
          .isNotNegative().isLessThan(events.indexOf("b assigned " + p));
    }
  }

  @Test
  void aPartitionWithACheckpointContinuesFromItAndOneWithoutIsReplayedFromItsFirstRecord() throws Exception {
    ClusterTopics topics = new ClusterTopics("checkpoint", 4);
    topics.ensure(admin, (short) 1, TIMEOUT);
    List<AdmittedUrl> first = pages(10, 20, 40);
    List<AdmittedUrl> second = pages(2, 20, 40).stream()
        .map(u -> new AdmittedUrl(CrawlUrl.of(u.url().url() + "?again"), u.queueKey(), u.depth(), u.via(), 0)).toList();
    try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "zstd")) {
      producer.take(first);
    }
    RecordingOwner before = new RecordingOwner("before", RecordingOwner.holders(), Map.of(), new ArrayList<>());
    UrlTopicConsumer consumer = start(topics, "node-before", before);
    await("the first owner takes every URL", () -> before.taken().size() == first.size());
    Map<Integer, Long> checkpoints = before.nextOffsets();
    consumer.stop();
    threads.get(0).join(TIMEOUT.toMillis());

    try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "zstd")) {
      producer.take(second);
    }
    // The next owner's disk holds partitions 0 and 1 up to the checkpoint, and nothing of 2 and 3.
    RecordingOwner after = new RecordingOwner("after", RecordingOwner.holders(),
        Map.of(0, checkpoints.get(0), 1, checkpoints.get(1)), new ArrayList<>());
    Set<String> expected = new HashSet<>();
    for (AdmittedUrl u : second) {
      expected.add(u.url().url());
    }
    for (AdmittedUrl u : first) {
      if (Partitions.of(u.queueKey(), 4) >= 2) {
        expected.add(u.url().url());
      }
    }
    start(topics, "node-after", after);
    await("the next owner takes what its checkpoints lack", () -> after.taken().size() >= expected.size());
    assertThat(after.taken().stream().map(t -> t.url().url().url()).toList()).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * An owner that reads a partition's done records first is not ready for its URL records: they
   * wait, while the other partitions' records are taken, and come in order once it is ready.
   */
  @Test
  void aPartitionsRecordsWaitUntilItsOwnerIsReadyForThem() throws Exception {
    ClusterTopics topics = new ClusterTopics("readiness", 2);
    topics.ensure(admin, (short) 1, TIMEOUT);
    List<AdmittedUrl> produced = pages(20, 20, 40);
    try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, "lz4")) {
      producer.take(produced);
    }
    List<AdmittedUrl> ofZero = produced.stream().filter(u -> Partitions.of(u.queueKey(), 2) == 0).toList();
    List<AdmittedUrl> ofOne = produced.stream().filter(u -> Partitions.of(u.queueKey(), 2) == 1).toList();
    assertThat(ofZero).isNotEmpty();
    assertThat(ofOne).isNotEmpty();
    RecordingOwner owner = new RecordingOwner("o", RecordingOwner.holders(), Map.of(), new ArrayList<>());
    var zeroReady = owner.notReadyUntilCompleted(0);
    start(topics, "node-readiness", owner);
    await("partition 1's URLs are taken", () -> owner.taken().size() >= ofOne.size());
    Thread.sleep(1_000);   // a few more polls: partition 0's records came in the same fetches as partition 1's
    assertThat(owner.taken()).as("URLs taken while partition 0 is not ready").allMatch(t -> t.partition() == 1)
        .hasSize(ofOne.size());
    zeroReady.complete(null);
    await("partition 0's URLs are taken", () -> owner.taken().size() >= produced.size());
    assertThat(owner.taken().stream().filter(t -> t.partition() == 0).map(t -> describe(t.url())).toList())
        .as("partition 0's URLs, once each, in the order produced")
        .containsExactlyElementsOf(ofZero.stream().map(UrlTopicTest::describe).toList());
    assertThat(owner.violations()).isEmpty();
  }

  /** An owner that cannot take a partition (its done records cannot be read) fails the consumer: the node stops. */
  @Test
  void aPartitionItsOwnerCannotTakeEndsTheConsumer() throws Exception {
    ClusterTopics topics = new ClusterTopics("unready", 2);
    topics.ensure(admin, (short) 1, TIMEOUT);
    RecordingOwner owner = new RecordingOwner("o", RecordingOwner.holders(), Map.of(), new ArrayList<>());
    owner.notReadyUntilCompleted(1).completeExceptionally(new IllegalStateException("a record it cannot read"));
    List<Throwable> ended = Collections.synchronizedList(new ArrayList<>());
    UrlTopicConsumer consumer = new UrlTopicConsumer(topics, client, "node-unready", owner);
    Thread thread = new Thread(() -> {
      try {
        consumer.run();
      } catch (RuntimeException e) {
        ended.add(e);
      }
    }, "node-unready");
    thread.start();
    thread.join(PATIENCE.toMillis());
    assertThat(thread.isAlive()).as("the consumer still runs").isFalse();
    assertThat(ended).singleElement().satisfies(e -> assertThat(e)
        .hasMessageContaining("partition 1 cannot be taken here").hasMessageContaining("a record it cannot read"));
  }

  @Test
  void aTopicOfAnotherPartitionCountIsRefusedBeforeAnythingIsSent() throws Exception {
    admin.createTopics(List.of(new NewTopic("small.urls", 4, (short) 1))).all().get();
    try (UrlTopicProducer producer = new UrlTopicProducer(new ClusterTopics("small", 8), client, "lz4")) {
      assertThatThrownBy(() -> producer.take(pages(1, 3, 3)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("topic small.urls has 4 partitions, the crawl has 8");
    }
  }

  private UrlTopicConsumer start(ClusterTopics topics, String node, PartitionOwner owner) {
    UrlTopicConsumer consumer = new UrlTopicConsumer(topics, client, node, owner);
    Thread thread = new Thread(consumer, node);
    consumers.add(consumer);
    threads.add(thread);
    groups.add(topics.groupId());
    thread.start();
    return consumer;
  }

  /** {@code pages} pages of {@code links} links each, over {@code hosts} hosts, each URL once. */
  static List<AdmittedUrl> pages(int pages, int links, int hosts) {
    List<AdmittedUrl> urls = new ArrayList<>();
    int n = 0;
    for (int page = 0; page < pages; page++) {
      String via = "https://h" + (page % hosts) + ".example.com/page/" + page;
      for (int l = 0; l < links; l++, n++) {
        String host = "h" + (n % hosts) + ".example.com";
        urls.add(new AdmittedUrl(CrawlUrl.of("https://" + host + "/doc/" + n + ".html"), host, 1 + page % 5, via, 0));
      }
    }
    return urls;
  }

  static String describe(AdmittedUrl u) {
    return u.url().url() + " " + u.queueKey() + " " + u.depth() + " " + u.via() + " " + u.redirectHops();
  }

  static Set<Integer> partitionsOf(List<RecordingOwner.Taken> taken) {
    return taken.stream().map(RecordingOwner.Taken::partition).collect(Collectors.toSet());
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + PATIENCE.toSeconds() + " s: " + what);
      }
      Thread.sleep(50);
    }
  }
}
