package dev.crawler.cluster.cli;

import dev.crawler.cli.CommandFailure;
import dev.crawler.cli.ExitCode;
import dev.crawler.cli.VersionProvider;
import dev.crawler.cluster.ClusterStatus;
import dev.crawler.cluster.ClusterTopics;
import dev.crawler.cluster.NodePlacement;
import dev.crawler.config.CrawlConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler cluster status}: the partitions of a crawl on Kafka, their owners, lag and totals. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Show a crawl's partitions, their owners and lag, and its totals, as the brokers hold them.")
final class ClusterStatusCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    CrawlConfig crawl = ClusterConfig.load(config);
    ClusterTopics topics = new ClusterTopics(crawl.cluster().name(), crawl.cluster().partitions());
    try {
      ClusterStatus.Crawl status = ClusterStatus.read(topics, NodePlacement.clientConfig(crawl), Duration.ofSeconds(30));
      spec.commandLine().getOut().print(ClusterStatus.format(status));
      spec.commandLine().getOut().flush();
      return ExitCode.OK;
    } catch (ExecutionException | TimeoutException e) {
      throw new CommandFailure("the brokers at " + String.join(",", crawl.cluster().bootstrapServers())
          + " did not tell the status of crawl " + topics.crawl() + ": "
          + (e.getCause() != null ? e.getCause().getMessage() : e.toString()), ExitCode.FAILURE);
    }
  }
}
