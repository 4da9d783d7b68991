package dev.crawler.cli;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.status.CrawlStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler demo}: serves the built-in site on loopback, crawls it with a demo
 * configuration, and checks the crawl against the site's own request log. No internet needed.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    // The first line is the summary `crawler --help` lists: a whole sentence.
    description = {
        "Crawl a built-in web site on 127.0.0.1 and check the crawl against the site's own log.",
        "The site has several hosts, robots.txt with Disallow and Crawl-delay, a sitemap, redirects",
        "and errors."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the crawl fetched what it should", "1:the crawl failed or missed pages (see the message)"})
final class DemoCommand implements Callable<Integer> {
  /** The demo's hosts are all under example.com, except www.example.org, which is linked but out of scope. */
  static final String IN_SCOPE_DOMAIN = "example.com";

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where the crawl writes its state, WARC files and crawl.log (default: a new temporary folder).")
  Path dataDir;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Path dir = dataDir != null ? dataDir : Files.createTempDirectory("crawler-demo-");
    try (DemoSite site = DemoSite.start(DemoSiteSpec.demo())) {
      out.println("Demo site on 127.0.0.1:" + site.port() + ", seeds " + site.seeds());
      out.println("Crawl folder: " + dir.toAbsolutePath() + " (WARC files, crawl.log, stats.json)");
      out.flush();
      CrawlConfig config = ConfigLoader.parse(demoConfig(dir), "demo configuration", dir);
      Crawl crawl = Crawl.open(config, Crawl.Start.NEW, CrawlEnvironment.standard().withDns(site.dns())
          .withSeeds(site.seeds()));
      Path page = dir.resolve(CrawlStatus.ADDRESS_FILE);
      if (Files.exists(page)) {
        out.println("Status page: " + Files.readString(page).strip() + " (metrics at /metrics; also `crawler status "
            + dir.toAbsolutePath() + "`)");
        out.flush();
      }
      int code = CrawlRun.run(crawl, out, null);   // no file to resume the demo with
      return code == ExitCode.OK ? check(site, out) : code;
    }
  }

  /** The demo's configuration, written as a user would write it. */
  static String demoConfig(Path dir) {
    return """
        crawl:
          data-dir: %s
          user-agent:
            name: demo-crawler
        politeness:
          default-delay: 20ms
          max-crawl-delay: 2s
        fetch:
          workers: 16
        scope:
          mode: same-domain
          allow-private-addresses: true   # the demo site lives on 127.0.0.1
        seen:
          expected-urls: 1_000_000
        stats:
          interval: 2s
        """.formatted(yamlString(dir.toAbsolutePath().toString()));
  }

  private static String yamlString(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /** Compares the site's request log with the URLs its link graph says a correct crawl requests. */
  private static int check(DemoSite site, PrintWriter out) {
    Set<String> expected = site.expectedFetches(host -> host.equals(IN_SCOPE_DOMAIN) || host.endsWith("." + IN_SCOPE_DOMAIN));
    Map<String, Long> fetched = site.requests().countsByUrl();
    Set<String> missed = new TreeSet<>(expected);
    missed.removeAll(fetched.keySet());
    Set<String> unexpected = new TreeSet<>(fetched.keySet());
    unexpected.removeAll(expected);
    long twice = fetched.values().stream().filter(n -> n > 1).count();
    out.printf("Checked against the site's request log: %d of %d expected URLs fetched, %d fetched more than once,"
        + " %d not expected%n", expected.size() - missed.size(), expected.size(), twice, unexpected.size());
    missed.stream().limit(10).forEach(u -> out.println("  missed: " + u));
    unexpected.stream().limit(10).forEach(u -> out.println("  not expected: " + u));
    out.flush();
    return missed.isEmpty() && unexpected.isEmpty() && twice == 0 ? ExitCode.OK : ExitCode.FAILURE;
  }
}
