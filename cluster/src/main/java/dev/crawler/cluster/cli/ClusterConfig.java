package dev.crawler.cluster.cli;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.CrawlStartException;
import java.nio.file.Path;

/** The configuration file of a cluster command, which must have a cluster section. */
final class ClusterConfig {
  private ClusterConfig() {}

  static CrawlConfig load(Path file) {
    CrawlConfig config = ConfigLoader.load(file);
    if (!config.cluster().enabled()) {
      throw new CrawlStartException(file + " has no cluster section: a crawl across machines needs "
          + "cluster.bootstrap-servers and cluster.name (see `bin/crawler config --defaults`); to crawl on this "
          + "machine alone use `bin/crawler crawl`");
    }
    return config;
  }
}
