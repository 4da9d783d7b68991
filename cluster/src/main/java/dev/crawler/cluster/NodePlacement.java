package dev.crawler.cluster;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlDirectory;
import dev.crawler.crawl.CrawlPlacement;
import dev.crawler.crawl.CrawlSetup;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.HostQueues;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.intake.AdmittedUrls;
import dev.crawler.scope.Scope;
import dev.crawler.stats.CrawlStats;
import dev.crawler.status.CrawlStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster node's {@link CrawlPlacement}: the URLs its intake admits go to the crawl's URL
 * topic, and its workers lease from the partitions the crawl's group gives it
 * ({@link OwnedQueues}), each a {@link PartitionState} under {@code <crawl folder>/partitions/}.
 * {@link #start} makes the crawl's topics if they are missing, reads the seeds for the scope,
 * and joins the group; {@link #close} leaves it, handing its partitions over.
 */
public final class NodePlacement implements CrawlPlacement {
  private static final Logger log = LoggerFactory.getLogger(NodePlacement.class);
  /** How long a partition that leaves waits for its fetches under way: longer than a fetch may take. */
  static final Duration HAND_OVER_BOUND = Duration.ofSeconds(90);
  /** Links remembered as sent: 8 MB, about a million, more than a site's navigation links. */
  static final int RECENT_LINKS = 1 << 20;

  private final ClusterTopics topics;
  private final Map<String, Object> clients;
  private final String nodeId;
  private final UrlTopicProducer urls;
  private final RecentLinks recentLinks;
  private final DoneTopicProducer done;
  private final PartitionStates states;
  private final OwnedQueues queues;
  private final UrlTopicConsumer consumer;
  private final AtomicReference<Scope> scope = new AtomicReference<>();
  private final AtomicLong seedsRead = new AtomicLong();
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private Thread consumerThread;
  private SeedTopic.Reader seeds;
  private Thread seedThread;
  private volatile Throwable consumerFailure;

  private NodePlacement(CrawlConfig config, Path crawlFolder, CrawlStats stats) throws IOException {
    CrawlConfig.Cluster cluster = config.cluster();
    ClusterSeeds.checkQueueKeys(config);
    this.topics = new ClusterTopics(cluster.name(), cluster.partitions());
    this.clients = clientConfig(config);
    this.nodeId = nodeId(config);
    Path partitions = crawlFolder.resolve(CrawlDirectory.NODE_PARTITIONS);
    Files.createDirectories(partitions);
    try {
      // One producer for every topic: one network thread, and one request carries a poll's URLs and completions.
      QueueKeyedProducer producer = push(new QueueKeyedProducer(topics, clients, "zstd"));
      this.urls = new UrlTopicProducer(producer);
      PendingLinks pending = new PendingLinks();
      this.recentLinks = new RecentLinks(urls, pending, RECENT_LINKS, stats);
      this.done = new DoneTopicProducer(producer);
      this.states = push(new PartitionStates(crawlFolder, partitionOptions(config), topics, clients, stats));
      HandOverTopic handOvers = push(new HandOverTopic(producer, clients));
      this.queues = new OwnedQueues(states, done, pending, topics.partitions(), HAND_OVER_BOUND, handOvers,
          CrawlSetup.frontier(config), this::seedsTaken);
      this.consumer = new UrlTopicConsumer(topics, clients, nodeId, queues);
    } catch (RuntimeException e) {
      closeOpened(e);
      throw e;
    }
  }

  /** Opens the node's parts in its crawl folder; nothing talks to Kafka before {@link #start}. */
  static NodePlacement open(CrawlConfig config, Path crawlFolder, CrawlStats stats) throws IOException {
    return new NodePlacement(config, crawlFolder, stats);
  }

  private <T extends AutoCloseable> T push(T part) {
    opened.push(part);
    return part;
  }

  /** This node's name in the group: cluster.node-id, or the host's name. */
  public static String nodeId(CrawlConfig config) {
    return config.cluster().nodeId().orElseGet(NodePlacement::hostName);
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "node-" + ProcessHandle.current().pid();
    }
  }

  /** The Kafka clients' settings of a crawl: its bootstrap servers. */
  public static Map<String, Object> clientConfig(CrawlConfig config) {
    return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.cluster().bootstrapServers()));
  }

  /**
   * A partition's share of the crawl's URL-seen and frontier sizes: a node that owns every
   * partition uses what one machine's crawl would.
   */
  static PartitionState.Options partitionOptions(CrawlConfig config) {
    int p = config.cluster().partitions();
    UrlSeenService.Options seen = CrawlSetup.seen(config, Path.of("."));
    FrontierOptions f = CrawlSetup.frontier(config);
    FrontierOptions share = f.toBuilder()
        .workingSetHosts(Math.max(100, f.workingSetHosts() / p))
        .knownHostsCache(Math.max(1_000, f.knownHostsCache() / p))
        .readAheadBytes(Math.max(1L << 20, f.readAheadBytes() / p))
        .blockCacheBytes(Math.max(1L << 20, f.blockCacheBytes() / p))
        .memtableBytes(Math.max(1L << 20, f.memtableBytes() / p))
        .build();
    return new PartitionState.Options(Math.max(10_000, seen.expectedUrls() / p), seen.falsePositiveRate(),
        seen.policy(), Math.max(1 << 10, Integer.highestOneBit(seen.recentUrls() / p)),
        Math.max(1L << 20, seen.storeCacheBytes() / p), share, false);
  }

  @Override
  public HostQueues queues() {
    return queues;
  }

  @Override
  public AdmittedUrls admitted() {
    return recentLinks;
  }

  @Override
  public UrlSeenStats seenStats() {
    List<UrlSeenStats> parts = new ArrayList<>();
    queues.forEachState(s -> parts.add(s.seen().stats()));
    return SeenStatsSum.of(parts);
  }

  @Override
  public CrawlStatus.NativeMemory nativeMemory() {
    return new CrawlStatus.NativeMemory(() -> sum(s -> s.frontier().blockCacheBytes()),
        () -> sum(s -> s.frontier().memtableBytes()), () -> sum(s -> s.seen().storeMemoryBytes()));
  }

  private long sum(ToLongFunction<PartitionState> of) {
    AtomicLong total = new AtomicLong();
    queues.forEachState(s -> total.addAndGet(of.applyAsLong(s)));
    return total.get();
  }

  @Override
  public String label() {
    return "node " + nodeId + ": ";
  }

  /** The node's share of the crawl, and whether it is cut off, for {@code /metrics}. */
  @Override
  public List<CrawlStatus.LiveGauge> gauges() {
    return List.of(
        new CrawlStatus.LiveGauge("crawler.cluster.partitions.owned", "Partitions this node owns now",
            () -> queues.ownedPartitions().size()),
        new CrawlStatus.LiveGauge("crawler.cluster.lag.records",
            "URL records of this node's partitions not taken yet, as of its last poll (NaN if unknown)",
            () -> lag() < 0 ? Double.NaN : lag()),
        new CrawlStatus.LiveGauge("crawler.cluster.paused",
            "1 while this node has heard nothing from its group for long enough to stop fetching, else 0",
            () -> queues.groupSilent() ? 1 : 0),
        new CrawlStatus.LiveGauge("crawler.cluster.partitions.lost",
            "Partitions the group took from this node without a hand-over since it started",
            () -> lostPartitions()),
        new CrawlStatus.LiveGauge("crawler.cluster.silence.pauses",
            "Times this node paused its fetching since it started, the group silent", () -> silencePauses()));
  }

  /** " | partitions 3, lag 12", then whether fetching is paused and how many partitions were lost. */
  @Override
  public String statsTail() {
    long lag = lag();
    StringBuilder tail = new StringBuilder(" | partitions ").append(queues.ownedPartitions().size())
        .append(", lag ").append(lag < 0 ? "?" : Long.toString(lag));
    if (queues.groupSilent()) {
      tail.append(", PAUSED: no word from the group");
    }
    long lost = lostPartitions();
    if (lost > 0) {
      tail.append(", lost ").append(lost);
    }
    return tail.toString();
  }

  @Override
  public boolean endsWhenEmpty() {
    return false;
  }

  @Override
  public void start(Scope crawlScope, Consumer<RuntimeException> failure) {
    scope.set(crawlScope);
    log.info("Node {} connects to the Kafka cluster at {}", nodeId, clients.values());
    ClusterSeeds.ensureTopics(topics, clients);
    seeds = new SeedTopic.Reader(topics, clients, this::addSeed);
    long read = seeds.readToEnd();
    seedThread = seeds.followOn("seeds-" + nodeId);
    consumerThread = Thread.ofPlatform().name("partitions-" + nodeId).start(() -> {
      try {
        consumer.run();
      } catch (RuntimeException | Error e) {
        consumerFailure = e;
        log.error("Node {} can no longer take its partitions' URLs: {}; it stops, start it again", nodeId,
            e.toString(), e);
        failure.accept(new IllegalStateException("the node's partitions can no longer be taken: " + e, e));
      }
    });
    log.info("Node {} joins crawl {} ({} partitions, topics {}, {}, {} and {}) with {} seed(s) known", nodeId,
        topics.crawl(), topics.partitions(), topics.urls(), topics.done(), topics.handovers(), topics.seeds(), read);
  }

  private void addSeed(String url) {
    seedsRead.incrementAndGet();
    Scope s = scope.get();
    if (s != null) {
      s.addSeed(url);
    }
  }

  /** A seed's own record may come before the seed topic is read: its owner puts it in scope at once. */
  private void seedsTaken(List<AdmittedUrl> taken) {
    Scope s = scope.get();
    if (s == null) {
      return;
    }
    for (AdmittedUrl u : taken) {
      if (u.depth() == 0 && u.via() == null && u.redirectHops() == 0) {
        s.addSeed(u.url().url());
      }
    }
  }

  /** The node's name in the group. */
  public String nodeId() {
    return nodeId;
  }

  /** The partitions this node owns now, in no order. */
  public List<Integer> ownedPartitions() {
    return queues.ownedPartitions();
  }

  /** Partitions the group took from this node without its hand-over since the start (its session expired). */
  public long lostPartitions() {
    return queues.lostPartitions();
  }

  /** How often fetching paused since the start because the group was not heard for a good part of its session. */
  public long silencePauses() {
    return queues.silencePauses();
  }

  /** The records of owned partitions not taken yet, as of the consumer's last poll; -1 if unknown. */
  public long lag() {
    return consumer.lag();
  }

  /** Whether this node has nothing to do now: no URL queued or leased, and its partitions' records all taken. */
  public boolean idle() {
    var f = queues.stats();
    return consumerThread != null && f.queuedUrls() == 0 && f.leasedUrls() == 0 && consumer.lag() == 0;
  }

  /** Whether the consumer's thread died on an error it cannot go on from. */
  public boolean failed() {
    return consumerFailure != null;
  }

  /** Leaves the group (its partitions are handed over), then closes the states and the producers. */
  @Override
  public void close() throws IOException {
    queues.workersEnded();   // the crawl's workers are joined before its placement closes
    if (consumerThread != null) {
      consumer.stop();
      try {
        consumerThread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (seeds != null) {
      seeds.close();
    }
    closeOpened(null);
  }

  private void closeOpened(RuntimeException primary) {
    while (!opened.isEmpty()) {
      try {
        opened.pop().close();
      } catch (Exception e) {
        if (primary != null) {
          primary.addSuppressed(e);
        } else {
          log.warn("Node {}: a part did not close cleanly: {}", nodeId, e.toString());
        }
      }
    }
  }
}
