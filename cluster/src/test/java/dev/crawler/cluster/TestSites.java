package dev.crawler.cluster;

import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.frontier.Partitions;
import java.io.IOException;
import java.util.Set;
import java.util.stream.Collectors;

/** Test sites for crawls across nodes. */
final class TestSites {
  private static final int ATTEMPTS = 1_000;

  private TestSites() {}

  /**
   * Starts the site on a port where each of the crawl's partitions holds at least one of its
   * hosts (a queue key is host and port): whichever partitions a node is given, it has hosts to
   * fetch, so a test of what that node does cannot pass for want of work.
   */
  static DemoSite startOnEveryPartition(DemoSiteSpec spec, int partitions) throws IOException {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      DemoSite site = DemoSite.start(spec);
      Set<Integer> held = spec.hosts().stream().map(h -> Partitions.of(h.name() + ":" + site.port(), partitions))
          .collect(Collectors.toSet());
      if (held.size() == partitions) {
        return site;
      }
      site.close();
    }
    throw new IllegalStateException("no port of " + ATTEMPTS + " tried puts one of the site's " + spec.hosts().size()
        + " hosts on each of " + partitions + " partitions: give it more hosts");
  }
}
