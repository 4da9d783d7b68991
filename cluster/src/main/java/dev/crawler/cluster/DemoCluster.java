package dev.crawler.cluster;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demo of a crawl across machines: the configuration of each node, written as a user would
 * write it, and the check of a finished crawl against the demo site's own request log.
 */
public final class DemoCluster {
  /** The demo's hosts are all under example.com, except www.example.org, which is linked but out of scope. */
  public static final String IN_SCOPE_DOMAIN = "example.com";

  private DemoCluster() {}

  /** A node's configuration: the demo's politeness and scope, a folder and a name of its own, no status page. */
  public static CrawlConfig nodeConfig(Path folder, String bootstrapServers, String crawl, int partitions,
      String nodeId) {
    return ConfigLoader.parse(nodeYaml(folder, bootstrapServers, crawl, partitions, nodeId), "the demo's node " + nodeId,
        folder);
  }

  /** The YAML of {@link #nodeConfig}, for a file. */
  public static String nodeYaml(Path folder, String bootstrapServers, String crawl, int partitions, String nodeId) {
    return """
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
          allow-private-addresses: true   # the demo site lives on 127.0.0.1
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
  }

  /**
   * What the site's request log says of a crawl.
   *
   * @param crowdedHosts hosts that ever had two requests in flight at once (each has one connection)
   * @param crawlDelayBroken hosts with a Crawl-delay whose rest between two requests was shorter
   */
  public record Check(int expected, Set<String> missed, Set<String> twice, Set<String> unexpected,
      Set<String> crowdedHosts, Set<String> crawlDelayBroken) {
    public boolean passed() {
      return missed.isEmpty() && twice.isEmpty() && unexpected.isEmpty() && crowdedHosts.isEmpty()
          && crawlDelayBroken.isEmpty();
    }

    /** A few lines for people. */
    public List<String> lines() {
      List<String> lines = new ArrayList<>();
      lines.add(String.format("Checked against the site's request log: %d of %d expected URLs fetched, %d fetched more "
          + "than once, %d not expected; hosts with two requests at once: %s; Crawl-delay cut short: %s",
          expected - missed.size(), expected, twice.size(), unexpected.size(), none(crowdedHosts),
          none(crawlDelayBroken)));
      missed.stream().limit(10).forEach(u -> lines.add("  missed: " + u));
      twice.stream().limit(10).forEach(u -> lines.add("  more than once: " + u));
      unexpected.stream().limit(10).forEach(u -> lines.add("  not expected: " + u));
      return lines;
    }

    private static String none(Set<String> hosts) {
      return hosts.isEmpty() ? "none" : String.join(", ", hosts);
    }
  }

  public static Check check(DemoSite site) {
    RequestLog log = site.requests();
    Set<String> expected = site.expectedFetches(h -> h.equals(IN_SCOPE_DOMAIN) || h.endsWith("." + IN_SCOPE_DOMAIN));
    Map<String, Long> fetched = log.countsByUrl();
    Set<String> missed = new TreeSet<>(expected);
    missed.removeAll(fetched.keySet());
    Set<String> twice = new TreeSet<>();
    fetched.forEach((url, n) -> {
      if (n > 1) {
        twice.add(url);
      }
    });
    Set<String> unexpected = new TreeSet<>(fetched.keySet());
    unexpected.removeAll(expected);
    Set<String> crowded = new TreeSet<>();
    Set<String> delayBroken = new TreeSet<>();
    for (DemoHost host : site.spec().hosts()) {
      List<RequestLog.Request> requests = log.forHost(host.name());
      if (log.maxConcurrent(host.name()) > 1) {
        crowded.add(host.name());
      }
      Duration delay = host.crawlDelay();
      if (delay != null && requests.size() >= 2 && log.minGap(host.name()).compareTo(delay) < 0) {
        delayBroken.add(host.name() + " (" + shortestRest(requests) + ")");
      }
    }
    return new Check(expected.size(), missed, twice, unexpected, crowded, delayBroken);
  }

  /** The two requests with the shortest rest between them, in order of start, for a message. */
  static String shortestRest(List<RequestLog.Request> requests) {
    String pair = "";
    long min = Long.MAX_VALUE;
    for (int i = 1; i < requests.size(); i++) {
      long rest = requests.get(i).startNanos() - requests.get(i - 1).endNanos();
      if (rest < min) {
        min = rest;
        pair = requests.get(i - 1).target() + " then " + requests.get(i).target() + ", " + rest / 1_000_000 + " ms apart";
      }
    }
    return pair;
  }
}
