package dev.crawler.cluster.cli;

import dev.crawler.cli.ExitCode;
import dev.crawler.cli.VersionProvider;
import dev.crawler.cluster.ClusterNode;
import dev.crawler.cluster.ClusterSeeds;
import dev.crawler.cluster.ClusterStatus;
import dev.crawler.cluster.ClusterTopics;
import dev.crawler.cluster.DemoCluster;
import dev.crawler.cluster.LocalNodes;
import dev.crawler.cluster.NodePlacement;
import dev.crawler.cluster.broker.KraftBroker;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler cluster demo}: a Kafka broker on loopback in this process, the demo site, and
 * three nodes of one crawl, which crawl the site; then the check against the site's request log.
 * Nothing to install, no internet.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Crawl the built-in site with three nodes of one cluster, on a Kafka broker started in this process on",
        "127.0.0.1, then check the crawl against the site's own log: each page once, no host shared."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the crawl fetched what it should", "1:the crawl failed or the check found a fault"})
final class ClusterDemoCommand implements Callable<Integer> {
  private static final int NODES = 3;
  private static final int PARTITIONS = 8;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where the broker and the nodes keep their state (default: a new temporary folder).")
  Path dataDir;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path dir = dataDir != null ? dataDir : Files.createTempDirectory("crawler-cluster-demo-");
    out.println("Starting a Kafka broker (KRaft, one node) on 127.0.0.1, state in " + dir.resolve("broker"));
    out.flush();
    try (KraftBroker broker = KraftBroker.startFresh(dir.resolve("broker"));
        DemoSite site = DemoSite.start(DemoSiteSpec.demo())) {
      out.println("Broker at " + broker.bootstrapServers() + "; demo site on 127.0.0.1:" + site.port() + ", seeds "
          + site.seeds());
      String crawl = "demo";
      List<CrawlConfig> configs = new ArrayList<>();
      DemoCluster.Check check;
      ClusterStatus.Crawl status;
      boolean ended;
      try (LocalNodes nodes = new LocalNodes(PARTITIONS)) {
        for (int i = 1; i <= NODES; i++) {
          CrawlConfig config = DemoCluster.nodeConfig(dir.resolve("node-" + i), broker.bootstrapServers(), crawl,
              PARTITIONS, "node-" + i);
          configs.add(config);
          nodes.start(config, CrawlEnvironment.standard().withDns(site.dns()));
        }
        out.println(NODES + " nodes started (folders " + dir.resolve("node-1") + " ...); waiting for the group to "
            + "settle");
        out.flush();
        nodes.awaitSettled(Duration.ofSeconds(90));
        out.println("Partitions: " + nodes.owners());
        ClusterSeeds.Added added = ClusterSeeds.add(configs.get(0), site.seeds(), "the demo site");
        out.println("Seeded with " + added.seeds().size() + " URLs; crawling");
        out.flush();
        ended = nodes.awaitIdle(Duration.ofMinutes(5));
        status = ClusterStatus.read(new ClusterTopics(crawl, PARTITIONS), NodePlacement.clientConfig(configs.get(0)),
            Duration.ofSeconds(30));
        for (ClusterNode node : nodes.nodes()) {
          out.println(node.nodeId() + " fetched " + node.crawl().stats().requested() + " pages of partitions "
              + node.ownedPartitions());
        }
      }
      out.print(ClusterStatus.format(status));
      if (!ended) {
        out.println("The crawl did not end within 5 minutes (see the log above)");
        out.flush();
        return ExitCode.FAILURE;
      }
      check = DemoCluster.check(site);
      check.lines().forEach(out::println);
      out.flush();
      return check.passed() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }
}
