package dev.crawler.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.CrawlStartException;
import dev.crawler.crawl.StopReason;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlLogReader;
import dev.crawler.record.CrawlOutcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The private-address guard, in a crawl of its own with {@code scope.allow-private-addresses:
 * false} (the hostile site's main crawl must allow them: it is all on loopback). Its seeds are
 * names that resolve to 10.0.0.7, to the cloud metadata address 169.254.169.254 and to
 * 127.0.0.1 (where the hostile site listens), and IP literals of the last two. None may be
 * connected to: the site's request log is the proof for loopback, and the others are never
 * routed because the resolver's answer is refused before OkHttp connects. One more seed does not
 * resolve at all: a crawl whose every seed is private does not start (see
 * {@link #aCrawlWhoseEverySeedIsPrivateDoesNotStartAndSaysWhy}), and this one must run.
 */
class PrivateAddressCrawlTest {
  static HostileSite site;
  static StopReason reason;
  static List<CrawlLogEntry> log;

  @BeforeAll
  static void crawlPrivateAddresses(@TempDir Path dir) throws Exception {
    site = HostileSite.start(List.of());
    Path crawlDir = dir.resolve("crawl");
    List<String> seeds = List.of(
        "http://" + HostileSite.PRIVATE_HOST + ":" + site.port() + "/page",
        "http://" + HostileSite.METADATA_HOST + "/latest/meta-data/",
        "http://loopback.example.com:" + site.port() + "/page",
        "http://169.254.169.254/latest/meta-data/",
        "http://127.0.0.1:" + site.port() + "/page",
        "http://" + HostileSite.NXDOMAIN + "/page");
    try (Crawl crawl = Crawl.open(HostileWebTest.config(crawlDir, false), Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(seeds))) {
      reason = crawl.run();
    }
    log = CrawlLogReader.readAll(crawlDir.resolve("crawl.log")).stream().toList();
  }

  @AfterAll
  static void stopTheSite() throws Exception {
    site.close();
  }

  @Test
  void theCrawlEndsOnItsOwn() {
    assertThat(reason).isEqualTo(StopReason.FINISHED);
  }

  @Test
  void aCrawlWhoseEverySeedIsPrivateDoesNotStartAndSaysWhy(@TempDir Path dir) {
    List<String> seeds = List.of("http://127.0.0.1:" + site.port() + "/", "http://" + HostileSite.PRIVATE_HOST + "/");

    assertThatThrownBy(() -> Crawl.open(HostileWebTest.config(dir.resolve("crawl"), false), Crawl.Start.NEW,
        CrawlEnvironment.standard().withDns(site.dns()).withSeeds(seeds)))
        .isInstanceOf(CrawlStartException.class)
        .hasMessage("every seed is refused: 127.0.0.1, private.example.com (10.0.0.7) are private addresses"
            + " (loopback, a LAN or link-local), and only public ones are crawled. To crawl a server of your own,"
            + " set scope.allow-private-addresses: true");
    assertThat(dir.resolve("crawl")).doesNotExist();
  }

  @Test
  void nothingIsRequestedFromAPrivateAddress() {
    assertThat(site.requests()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://private.example.com:{port}/robots.txt",
      "http://metadata.example.com/robots.txt",
      "http://loopback.example.com:{port}/robots.txt",
      "http://169.254.169.254/robots.txt",
      "http://127.0.0.1:{port}/robots.txt"})
  void eachHostIsRefusedAsAPrivateAddressWithoutAnAnswer(String robotsUrl) {
    assertThat(log).filteredOn(e -> e.url().equals(site.url(robotsUrl))).isNotEmpty().allSatisfy(e -> {
      assertThat(e.outcome()).isEqualTo(CrawlOutcome.PRIVATE_ADDRESS);
      assertThat(e.httpStatus()).isZero();
    });
  }

  @Test
  void eachPageWaitsForItsRobotsTxtThenIsGivenUpNamingTheCause() {
    List<CrawlLogEntry> pages = log.stream().filter(e -> !"robots.txt".equals(e.detail()))
        .filter(e -> !e.url().contains(HostileSite.NXDOMAIN)).toList();
    assertThat(pages.stream().map(CrawlLogEntry::url).distinct()).hasSize(5);
    assertThat(pages).allSatisfy(e -> {
      assertThat(e.outcome()).isEqualTo(CrawlOutcome.ROBOTS_UNAVAILABLE);
      assertThat(e.detail()).startsWith("PRIVATE_ADDRESS: ");
    });
    assertThat(pages).filteredOn(e -> e.detail().endsWith("given up after " + HostileWebTest.MAX_RETRIES + " retries"))
        .hasSize(5);
  }
}
