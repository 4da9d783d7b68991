package dev.crawler.cluster.cli;

import dev.crawler.cli.CrawlRun;
import dev.crawler.cli.VersionProvider;
import dev.crawler.cluster.ClusterNode;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler node}: starts a node of a crawl on Kafka, or joins it again where this machine left it. */
@Command(
    name = "node",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Start or rejoin a node of a crawl across machines (the config's cluster section); Ctrl-C leaves cleanly.",
        "The node takes a share of the crawl's partitions, fetches their hosts, and hands them over when it leaves.",
        "Add seeds with `crawler cluster seed`."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the node left the cluster cleanly", "1:the node failed (see the message)",
        "2:bad command line or configuration; nothing was started"})
final class NodeCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    CrawlConfig crawl = ClusterConfig.load(config);
    PrintWriter out = spec.commandLine().getOut();
    ClusterNode node = ClusterNode.open(crawl, CrawlEnvironment.standard());
    out.println("Node " + node.nodeId() + " of crawl " + crawl.cluster().name() + ", state in "
        + crawl.crawl().dataDir() + "; Ctrl-C hands its partitions over and leaves");
    out.flush();
    return CrawlRun.run(node.crawl(), out, null);
  }
}
