package dev.crawler.cluster;

import dev.crawler.cluster.broker.KraftBroker;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.parse.PageParser;
import dev.crawler.queue.QueueBy;
import dev.crawler.url.CrawlUrl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * What the URL topic costs a fetched page: the generated demo site's pages (78 links each) are
 * fetched and parsed once, each page's links normalized and keyed as the intake would, and then
 * produced through {@link UrlTopicProducer} to a real broker with each compression. Prints the
 * records, the value bytes and the bytes the broker's log holds, per record and per page, and
 * the broker's start time. Every link of a page is sent (no recent-links cache yet), so this is
 * the most a page can cost.
 *
 * <p>Arguments: pages to sample (300), partitions (64).
 */
public final class LinkTrafficBench {
  public static void main(String[] args) throws Exception {
    int sample = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    List<List<AdmittedUrl>> pages = samplePages(sample);
    long links = pages.stream().mapToLong(List::size).sum();
    long valueBytes = pages.stream().flatMap(List::stream).mapToLong(u -> UrlRecord.encode(u).length).sum();
    System.out.printf(Locale.ROOT, "%d pages, %.1f links a page, value %.1f bytes a record%n", pages.size(),
        (double) links / pages.size(), (double) valueBytes / links);

    Path dir = Files.createTempDirectory("link-traffic");
    long started = System.nanoTime();
    try (KraftBroker broker = KraftBroker.startFresh(dir)) {
      System.out.printf(Locale.ROOT, "broker started in %.1f s%n", (System.nanoTime() - started) / 1e9);
      Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
      System.out.println("| compression | records | log bytes a record | log bytes a page | sent bytes a page |");
      System.out.println("| --- | ---: | ---: | ---: | ---: |");
      try (Admin admin = Admin.create(client)) {
        for (String compression : List.of("none", "lz4", "zstd")) {
          ClusterTopics topics = new ClusterTopics("traffic-" + compression, partitions);
          topics.ensure(admin, (short) 1, Duration.ofSeconds(30));
          double sent;
          try (UrlTopicProducer producer = new UrlTopicProducer(topics, client, compression)) {
            for (List<AdmittedUrl> page : pages) {
              producer.take(page);
            }
            sent = producer.metrics("outgoing-byte-total").get("outgoing-byte-total");
          }
          long logBytes = logBytes(admin, topics.urls());
          System.out.printf(Locale.ROOT, "| %s | %,d | %.1f | %,.0f | %,.0f |%n", compression, links,
              (double) logBytes / links, (double) logBytes / pages.size(), sent / pages.size());
        }
      }
    }
  }

  /** The site's pages in breadth-first order from its seeds, each page's admitted links, deduplicated on the page. */
  static List<List<AdmittedUrl>> samplePages(int sample) throws Exception {
    UrlNormalizer normalizer = new UrlNormalizer(UrlNormalizer.Options.defaults());
    PageParser parser = new PageParser(true, 10_000);
    List<List<AdmittedUrl>> pages = new ArrayList<>();
    try (DemoSite site = DemoSite.start(DemoSiteSpec.generated(20, 200))) {
      OkHttpClient http = new OkHttpClient.Builder().dns(site.dns()).build();
      ArrayDeque<Map.Entry<String, Integer>> queue = new ArrayDeque<>();
      Set<String> queued = new HashSet<>();
      for (String seed : site.seeds()) {
        queue.add(Map.entry(seed, 0));
        queued.add(seed);
      }
      while (!queue.isEmpty() && pages.size() < sample) {
        Map.Entry<String, Integer> next = queue.poll();
        byte[] body;
        try (Response response = http.newCall(new Request.Builder().url(next.getKey()).build()).execute()) {
          if (response.code() != 200 || !String.valueOf(response.header("Content-Type")).startsWith("text/html")) {
            continue;
          }
          body = response.body().bytes();
        }
        Map<String, AdmittedUrl> onPage = new LinkedHashMap<>();
        for (String raw : parser.parse(next.getKey(), body, StandardCharsets.UTF_8).links()) {
          if (normalizer.normalize(raw) instanceof UrlNormalization.Accepted accepted) {
            CrawlUrl url = CrawlUrl.of(accepted.url());
            if (url != null) {
              onPage.putIfAbsent(url.url(),
                  new AdmittedUrl(url, QueueBy.HOST.of(url), next.getValue() + 1, next.getKey(), 0));
            }
          }
        }
        pages.add(new ArrayList<>(onPage.values()));
        for (AdmittedUrl u : onPage.values()) {
          if (queued.add(u.url().url())) {
            queue.add(Map.entry(u.url().url(), u.depth()));
          }
        }
      }
      http.connectionPool().evictAll();
    }
    return pages;
  }

  private static long logBytes(Admin admin, String topic) throws Exception {
    long bytes = 0;
    for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(List.of(1)).allDescriptions().get().values()) {
      for (LogDirDescription d : dirs.values()) {
        for (Map.Entry<TopicPartition, ReplicaInfo> r : d.replicaInfos().entrySet()) {
          if (r.getKey().topic().equals(topic)) {
            bytes += r.getValue().size();
          }
        }
      }
    }
    return bytes;
  }
}
