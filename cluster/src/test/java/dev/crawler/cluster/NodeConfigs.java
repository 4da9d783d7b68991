package dev.crawler.cluster;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import java.nio.file.Path;

/** The configuration of a test's cluster node, as a user writes it: the demo's politeness, a folder and a name of its own. */
final class NodeConfigs {
  private NodeConfigs() {}

  static CrawlConfig node(Path folder, String bootstrapServers, String crawl, int partitions, String nodeId) {
    String yaml = """
        crawl:
          data-dir: '%s'
          user-agent:
            name: demo-crawler
        politeness:
          default-delay: 20ms
          max-crawl-delay: 2s
        fetch:
          workers: 8
        scope:
          mode: same-domain
          allow-private-addresses: true
        seen:
          expected-urls: 100_000
        stats:
          interval: 5s
        status:
          listen: off
        cluster:
          bootstrap-servers: [%s]
          name: %s
          partitions: %d
          node-id: %s
        """.formatted(folder.toAbsolutePath().toString().replace("'", "''"), bootstrapServers, crawl, partitions,
        nodeId);
    return ConfigLoader.parse(yaml, "node " + nodeId, folder);
  }
}
