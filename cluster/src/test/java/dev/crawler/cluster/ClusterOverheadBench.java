package dev.crawler.cluster;

import dev.crawler.cluster.broker.KraftBroker;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;

/**
 * What running as a cluster costs one machine: the same generated site crawled by the crawl on
 * one machine and by a one-node cluster (a broker in this JVM), alternating, same run. Pages a
 * second are counted from the site's request log (first request's start to last one's end), so
 * both are measured alike. Also prints the Kafka records and log bytes a fetched page cost.
 *
 * <p>Arguments: rounds (2), hosts (40), pages a host (100), cluster partitions (16).
 */
public final class ClusterOverheadBench {
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int hosts = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int pages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int partitions = args.length > 3 ? Integer.parseInt(args[3]) : 16;
    Path dir = Files.createTempDirectory("cluster-overhead");
    List<double[]> results = new ArrayList<>();
    Set<Long> beforeBroker = CpuUse.threadIds();
    try (KraftBroker broker = KraftBroker.startFresh(dir.resolve("broker"))) {
      Set<Long> brokerThreads = CpuUse.threadIds();
      brokerThreads.removeAll(beforeBroker);
      for (int round = 0; round <= rounds; round++) {   // round 0 warms the JIT up, and is not counted
        CpuUse before = CpuUse.now(brokerThreads);
        double[] alone = standalone(dir.resolve("alone-" + round), hosts, pages);
        CpuUse between = CpuUse.now(brokerThreads);
        double[] cluster = oneNode(dir.resolve("node-" + round), broker, "overhead-" + round, hosts, pages, partitions);
        CpuUse after = CpuUse.now(brokerThreads);
        // A page is a request in the site's log (robots.txt and sitemaps too); the CPU includes each crawl's setup.
        double aloneMs = (between.processMs() - before.processMs()) / alone[1];
        double nodeMs = (after.processMs() - between.processMs()) / cluster[3];
        double brokerMs = (after.brokerMs() - between.brokerMs()) / cluster[3];
        System.out.printf(Locale.ROOT, "round %d: one machine %.0f pages/s, one-node cluster %.0f pages/s (%.0f%%); "
            + "Kafka per fetched page: %.1f records, %.0f log bytes; CPU a page: one machine %.2f ms, cluster %.2f ms "
            + "(%.2f ms of it the broker's)%n", round, alone[0], cluster[0], 100 * cluster[0] / alone[0], cluster[1],
            cluster[2], aloneMs, nodeMs, brokerMs);
        if (round > 0) {
          results.add(new double[] {alone[0], cluster[0], cluster[1], cluster[2], aloneMs, nodeMs, brokerMs});
        }
      }
    }
    double alone = results.stream().mapToDouble(r -> r[0]).average().orElseThrow();
    double node = results.stream().mapToDouble(r -> r[1]).average().orElseThrow();
    double aloneCpu = results.stream().mapToDouble(r -> r[4]).average().orElseThrow();
    double nodeCpu = results.stream().mapToDouble(r -> r[5]).average().orElseThrow();
    double brokerCpu = results.stream().mapToDouble(r -> r[6]).average().orElseThrow();
    System.out.printf(Locale.ROOT, "| pages | one machine pages/s | one-node cluster pages/s | ratio | records a page | "
        + "log bytes a page | CPU a page, one machine | CPU a page, cluster (broker's share) |%n"
        + "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |%n"
        + "| %,d | %.0f | %.0f | %.0f%% | %.1f | %.0f | %.2f ms | %.2f ms (%.2f ms) |%n",
        hosts * pages, alone, node, 100 * node / alone, results.get(0)[2], results.get(0)[3], aloneCpu, nodeCpu,
        brokerCpu);
  }

  /**
   * The CPU this JVM used so far, and the part of it the broker's threads used (a broker runs on
   * machines of its own in a real cluster). Those are the threads it started with: the few it
   * starts later, or that ended, are counted as the node's.
   */
  private record CpuUse(double processMs, double brokerMs) {
    static Set<Long> threadIds() {
      Set<Long> ids = new HashSet<>();
      for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
        ids.add(id);
      }
      return ids;
    }

    static CpuUse now(Set<Long> brokerThreads) {
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      double broker = 0;
      for (long id : brokerThreads) {
        long ns = threads.getThreadCpuTime(id);
        broker += ns > 0 ? ns / 1e6 : 0;
      }
      return new CpuUse(os.getProcessCpuTime() / 1e6, broker);
    }
  }

  private static String yaml(Path folder) {
    return """
        crawl:
          data-dir: '%s'
          user-agent:
            name: bench-crawler
        politeness:
          default-delay: 0ms
        fetch:
          workers: 32
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: 1_000_000
        stats:
          interval: 10s
        status:
          listen: off
        output:
          warc: false
        """.formatted(folder.toAbsolutePath());
  }

  /** {pages/s, requests the site served}. */
  private static double[] standalone(Path folder, int hosts, int pages) throws Exception {
    try (DemoSite site = DemoSite.start(DemoSiteSpec.generated(hosts, pages))) {
      CrawlConfig config = ConfigLoader.parse(yaml(folder), "bench", folder);
      try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
          CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
        crawl.run();
      }
      return new double[] {pagesPerSecond(site.requests()), site.requests().size()};
    }
  }

  /** {pages/s, Kafka records a fetched page, log bytes a fetched page, requests the site served}. */
  private static double[] oneNode(Path folder, KraftBroker broker, String crawl, int hosts, int pages,
      int partitions) throws Exception {
    try (DemoSite site = DemoSite.start(DemoSiteSpec.generated(hosts, pages))) {
      String yaml = yaml(folder) + """
          cluster:
            bootstrap-servers: [%s]
            name: %s
            partitions: %d
            node-id: bench
          """.formatted(broker.bootstrapServers(), crawl, partitions);
      CrawlConfig config = ConfigLoader.parse(yaml, "bench node", folder);
      ClusterTopics topics = new ClusterTopics(crawl, partitions);
      Map<String, Object> clients = NodePlacement.clientConfig(config);
      try (LocalNodes nodes = new LocalNodes(partitions)) {
        nodes.start(config, CrawlEnvironment.standard().withDns(site.dns()));
        nodes.awaitSettled(Duration.ofSeconds(60));
        ClusterSeeds.add(config, site.seeds(), "the bench site");
        if (!nodes.awaitIdle(Duration.ofMinutes(10))) {
          throw new IllegalStateException("the one-node cluster did not end its crawl");
        }
      }
      RequestLog log = site.requests();
      ClusterStatus.Crawl status = ClusterStatus.read(topics, clients, Duration.ofSeconds(30));
      long bytes = logBytes(clients, crawl);
      double fetched = log.size();
      return new double[] {pagesPerSecond(log), (status.urlRecords() + status.doneRecords()) / fetched,
          bytes / fetched, fetched};
    }
  }

  private static double pagesPerSecond(RequestLog log) {
    List<RequestLog.Request> all = log.all();
    long first = all.get(0).startNanos();
    long last = all.stream().mapToLong(RequestLog.Request::endNanos).max().orElseThrow();
    return all.size() / ((last - first) / 1e9);
  }

  /** The bytes the broker's log holds for the crawl's topics (one replica). */
  private static long logBytes(Map<String, Object> clients, String crawl) throws Exception {
    try (Admin admin = Admin.create(clients)) {
      long bytes = 0;
      for (Map<String, LogDirDescription> of : admin.describeLogDirs(List.of(1)).allDescriptions().get().values()) {
        for (LogDirDescription d : of.values()) {
          for (var e : d.replicaInfos().entrySet()) {
            if (e.getKey().topic().startsWith(crawl + ".")) {
              bytes += e.getValue().size();
            }
          }
        }
      }
      return bytes;
    }
  }
}
