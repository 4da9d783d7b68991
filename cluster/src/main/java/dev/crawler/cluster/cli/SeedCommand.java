package dev.crawler.cluster.cli;

import dev.crawler.cli.ExitCode;
import dev.crawler.cli.VersionProvider;
import dev.crawler.cluster.ClusterSeeds;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlStartException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler cluster seed}: adds seeds to a crawl on Kafka. */
@Command(
    name = "seed",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Add seed URLs to a crawl across machines; a seed already crawled costs nothing.")
final class SeedCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @Option(names = "--seeds", paramLabel = "FILE", description = "Seed URLs, one a line (default: crawl.seeds).")
  Path seeds;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    CrawlConfig crawl = ClusterConfig.load(config);
    Path file = seeds != null ? seeds : crawl.crawl().seeds();
    try {
      ClusterSeeds.Added added = ClusterSeeds.addFile(crawl, file);
      spec.commandLine().getOut().printf("Sent %d seed(s) of %s to crawl %s%s%n", added.seeds().size(), file,
          crawl.cluster().name(), added.refused() > 0 ? " (" + added.refused() + " refused, see above)" : "");
      return ExitCode.OK;
    } catch (IllegalArgumentException e) {
      throw new CrawlStartException(e.getMessage());
    }
  }
}
