package dev.crawler.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.CrawlStartException;
import dev.crawler.crawl.StopReason;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import java.io.StringWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusServerTest {
  @TempDir
  Path dir;

  private static DemoSiteSpec site() {
    return new DemoSiteSpec(List.of(new DemoHost("www.example.com", 20, null, List.of(), false)));
  }

  private CrawlConfig config(String listen) {
    return ConfigLoader.parse("""
        status:
          listen: '%s'
        crawl:
          data-dir: '%s'
          user-agent:
            name: status-test
        politeness:
          default-delay: 0ms
        scope:
          allow-private-addresses: true
        seen:
          expected-urls: 1_000
        stats:
          interval: 200ms
        """.formatted(listen, dir.resolve("crawl")), "status test", dir);
  }

  @Test
  void anAddressInUseStopsTheStartAndSaysWhatToChange() throws Exception {
    try (DemoSite site = DemoSite.start(site());
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String at = "127.0.0.1:" + taken.getLocalPort();
      CrawlEnvironment env = CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds());
      assertThatThrownBy(() -> Crawl.open(config(at), Crawl.Start.NEW, env))
          .isInstanceOf(CrawlStartException.class)
          .hasMessageStartingWith("status.listen " + at + " is in use")
          .hasMessageEndingWith("set status.listen to a free port, port 0 for any, or off");
      // Nothing was left that passes for a crawl: a new one starts in the same folder.
      try (Crawl crawl = Crawl.open(config("127.0.0.1:0"), Crawl.Start.NEW, env)) {
        assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
      }
    }
  }

  @Test
  void theFolderNamesThePageWhileTheCrawlRunsAndStatusReadsStatsJsonAfter() throws Exception {
    Path crawlDir = dir.resolve("crawl");
    Path address = crawlDir.resolve(CrawlStatus.ADDRESS_FILE);
    try (DemoSite site = DemoSite.start(site());
        Crawl crawl = Crawl.open(config("127.0.0.1:0"), Crawl.Start.NEW,
            CrawlEnvironment.standard().withDns(site.dns()).withSeeds(site.seeds()))) {
      assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
      URI page = URI.create(Files.readString(address).strip());
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> index = http.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(index.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(index.body()).contains("<script src=\"uPlot.iife.min.js\"></script>");
      HttpResponse<String> uplot = http.send(HttpRequest.newBuilder(page.resolve("uPlot.iife.min.js")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(uplot.statusCode()).as("uPlot is served from the jar").isEqualTo(200);
      assertThat(uplot.body()).contains("uPlot");
      HttpResponse<String> text = http.send(HttpRequest.newBuilder(page.resolve("metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(text.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(text.body()).contains("# TYPE crawler_pages_total counter");
      assertThat(http.send(HttpRequest.newBuilder(page.resolve("../etc/passwd")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);

      StringWriter out = new StringWriter();
      int code = dev.crawler.cli.CrawlerCommand.run(new PrintWriter(out), new PrintWriter(new StringWriter()),
          "status", crawlDir.toString());
      assertThat(code).isZero();
      assertThat(out.toString()).startsWith("Running crawl in " + crawlDir).contains("busiest hosts:")
          .contains("pages " + String.format("%,d", crawl.stats().pages()));
    }
    assertThat(address).as("removed when the crawl closes").doesNotExist();
    StringWriter out = new StringWriter();
    int code = dev.crawler.cli.CrawlerCommand.run(new PrintWriter(out), new PrintWriter(new StringWriter()),
        "status", crawlDir.toString());
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith("Crawl in " + crawlDir + ", not running")
        .contains("filter 1: m=").contains("p=(1-e^(-kn/m))^k=");
  }
}
