package dev.crawler.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.StopReason;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each hop of a robots.txt redirect is a request to the host like any other and waits the host's
 * delay, read from the server's own log; a crawl with no delay is the control that shows the
 * log would see hops sent back to back. A loop of redirects ends after five, read as allow-all.
 */
class RobotsRedirectPacingTest {
  static final String HOST = "robots-loop.example.com";
  /** The server's clock and the crawler's differ by scheduling noise; a real breach is far larger. */
  static final Duration SLACK = Duration.ofMillis(5);

  @TempDir Path dir;

  private List<HostileSite.Request> crawl(String delay) throws Exception {
    try (HostileSite site = HostileSite.start(List.of("http://" + HOST + ":{port}/page"))) {
      Path crawlDir = dir.resolve("crawl-" + delay);
      CrawlConfig config = ConfigLoader.parse("""
          crawl:
            data-dir: '%s'
            user-agent:
              name: pacing-test
          politeness:
            default-delay: %s
          scope:
            mode: same-domain
            allow-private-addresses: true
          """.formatted(crawlDir, delay), "pacing-test", dir);
      try (Crawl crawl = Crawl.open(config, Crawl.Start.NEW,
          CrawlEnvironment.standard().withDns(site.dns()).withSeeds(List.of(site.seed())))) {
        assertThat(crawl.run()).isEqualTo(StopReason.FINISHED);
      }
      return site.requests(HOST);
    }
  }

  private static Duration minGap(List<HostileSite.Request> requests) {
    Duration min = Duration.ofDays(1);
    for (int i = 1; i < requests.size(); i++) {
      Duration gap = Duration.between(requests.get(i - 1).at(), requests.get(i).at());
      min = gap.compareTo(min) < 0 ? gap : min;
    }
    return min;
  }

  @Test
  void theHopsOfARobotsTxtRedirectWaitTheHostsDelayAndALoopEndsAsAllowAll() throws Exception {
    List<HostileSite.Request> requests = crawl("300ms");

    assertThat(requests).extracting(HostileSite.Request::path).as("6 robots.txt requests, then the pages")
        .startsWith("/robots.txt", "/robots-again.txt", "/robots.txt", "/robots-again.txt", "/robots.txt",
            "/robots-again.txt")
        .contains("/page", "/ok");
    assertThat(minGap(requests)).isGreaterThanOrEqualTo(Duration.ofMillis(300).minus(SLACK));
  }

  @Test
  void theControlWithNoDelaySeesTheHopsBackToBack() throws Exception {
    List<HostileSite.Request> requests = crawl("0ms");

    assertThat(requests).hasSizeGreaterThan(6);
    assertThat(minGap(requests)).isLessThan(Duration.ofMillis(300).minus(SLACK));
  }
}
