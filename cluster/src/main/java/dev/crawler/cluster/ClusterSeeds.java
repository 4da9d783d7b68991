package dev.crawler.cluster;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlSetup;
import dev.crawler.crawl.CrawlStartException;
import dev.crawler.crawl.SeedFile;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.queue.QueueBy;
import dev.crawler.url.CrawlUrl;
import dev.crawler.url.FetchableUrls;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds seeds to a crawl on Kafka ({@code crawler cluster seed}): their normal forms go to the
 * seed topic, which every node reads for its scope, then to the URL topic, each to the owner of
 * its partition, as a link would. A seed already crawled is SEEN there and costs nothing.
 */
public final class ClusterSeeds {
  private static final Logger log = LoggerFactory.getLogger(ClusterSeeds.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration ADMIN_CLOSE = Duration.ofSeconds(5);

  private ClusterSeeds() {}

  /** What was sent: the seeds in their normal form, and the lines refused. */
  public record Added(List<String> seeds, int refused) {}

  /** The seeds of {@code file}, one URL a line. */
  public static Added addFile(CrawlConfig config, Path file) throws IOException {
    List<String> urls = new ArrayList<>();
    List<SeedFile.Seed> lines = SeedFile.read(file);
    for (SeedFile.Seed s : lines) {
      urls.add(s.url());
    }
    return add(config, urls, file.toString());
  }

  /**
   * Normalizes the seeds, makes the crawl's topics if they are missing, and sends the seeds;
   * returns once the broker has them all.
   *
   * @param source where they come from, for the messages
   */
  public static Added add(CrawlConfig config, List<String> urls, String source) {
    checkQueueKeys(config);
    UrlNormalizer normalizer = new UrlNormalizer(CrawlSetup.normalizer(config));
    QueueBy queueBy = CrawlSetup.queueBy(config);
    Set<String> seeds = new LinkedHashSet<>();
    int refused = 0;
    for (String url : urls) {
      if (FetchableUrls.confirm(normalizer.normalize(url)) instanceof UrlNormalization.Accepted accepted) {
        seeds.add(accepted.url());
      } else {
        refused++;
        log.warn("Seed from {} is not a crawlable http(s) URL, skipped: {}", source, url);
      }
    }
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no usable seed URL in " + source
          + ": give at least one http(s) URL, one a line, such as https://www.example.com/");
    }
    ClusterTopics topics = new ClusterTopics(config.cluster().name(), config.cluster().partitions());
    Map<String, Object> clients = NodePlacement.clientConfig(config);
    ensureTopics(topics, clients);
    List<String> normal = List.copyOf(seeds);
    SeedTopic.publish(topics, clients, normal);
    List<AdmittedUrl> records = new ArrayList<>(normal.size());
    for (String seed : normal) {
      CrawlUrl url = CrawlUrl.of(seed);
      records.add(new AdmittedUrl(url, queueBy.of(url), 0, null, 0));
    }
    try (UrlTopicProducer producer = new UrlTopicProducer(topics, clients, "zstd")) {
      producer.take(records);
    }
    return new Added(normal, refused);
  }

  /** A crawl's queue keys must be the same on every node: queue-by ip decides them from each node's DNS answers. */
  static void checkQueueKeys(CrawlConfig config) {
    if (CrawlSetup.queueBy(config) == QueueBy.IP) {
      throw new IllegalArgumentException("politeness.queue-by: ip is not supported in a cluster (each node would decide "
          + "a host's queue from its own DNS answers, and a queue could get two owners): use host or domain");
    }
  }

  static void ensureTopics(ClusterTopics topics, Map<String, Object> clients) {
    ensureTopics(topics, clients, ADMIN_TIMEOUT);
  }

  /**
   * Makes the crawl's topics if they are missing.
   *
   * @throws CrawlStartException if the brokers do not answer within {@code timeout}
   */
  static void ensureTopics(ClusterTopics topics, Map<String, Object> clients, Duration timeout) {
    Admin admin = Admin.create(clients);
    try {
      int brokers = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
      topics.ensure(admin, (short) Math.min(3, brokers), timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the crawl's topics were checked", e);
    } catch (ExecutionException | TimeoutException e) {
      // Nothing was started: an expected failure, said in one line without a stack trace.
      throw new CrawlStartException("the Kafka cluster at " + clients.values() + " did not answer in "
          + timeout.toSeconds() + " s (" + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage())
          + "); check cluster.bootstrap-servers and that the brokers are up");
    } finally {
      admin.close(ADMIN_CLOSE);   // a call the brokers never answered is dropped, not waited for
    }
  }
}
