package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cluster.broker.BrokerLayout;
import dev.crawler.cluster.broker.ChildBroker;
import dev.crawler.demo.DemoHost;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker, in a JVM of its own, stops answering (SIGSTOP) mid-crawl for longer than the
 * group's session, as a network split would look to the nodes, then goes on (SIGCONT). Each node
 * must stop starting requests once it has heard nothing from the group for half the session (the
 * group may give its partitions away after the whole session), and go on afterwards: the site's
 * request log shows no request started from then until the broker answers again, where the same
 * stretch before the silence, and the silence's first seconds, have some. Then the crawl ends with
 * every page requested, twice at most {@link BrokerOutageCrawl#BOUND} (should the members'
 * sessions expire, their leases out come back).
 */
class BrokerSilenceTest {
  /** The test broker's group.consumer.session.timeout.ms is 6 s, so a node pauses after 3 s. */
  private static final Duration PAUSE_AFTER = Duration.ofSeconds(3);
  private static final Duration SILENCE = Duration.ofSeconds(9);
  /** A request started just before the pause: the watch looks every 100 ms, and the robots check comes first. */
  private static final Duration SLACK = Duration.ofSeconds(1);

  @Test
  void nodesStopRequestingWhileTheGroupIsSilentAndGoOnAfter(@TempDir Path dir) throws Exception {
    List<DemoHost> hosts = BrokerOutageCrawl.hosts(60);
    BrokerLayout layout = BrokerLayout.fresh(dir.resolve("broker"));
    try (DemoSite site = BrokerOutageCrawl.site(hosts)) {
      Set<String> expected = BrokerOutageCrawl.expected(site);
      long silentFrom;
      long silentUntil;
      List<Long> pauses = new ArrayList<>();
      try (ChildBroker broker = ChildBroker.start(layout);
          LocalNodes nodes = new LocalNodes(BrokerOutageCrawl.PARTITIONS)) {
        BrokerOutageCrawl.startAndCrawlAThird(nodes, dir, layout.bootstrapServers(), "silent", site);
        broker.pause();
        silentFrom = System.nanoTime();
        try {
          Thread.sleep(SILENCE.toMillis());
        } finally {
          silentUntil = System.nanoTime();
          broker.resume();
        }
        assertThat(nodes.awaitIdle(Duration.ofSeconds(180))).as("the crawl ends after the silence").isTrue();
        nodes.nodes().forEach(n -> pauses.add(n.silencePauses()));
      }
      RequestLog log = site.requests();
      long pausedFrom = silentFrom + PAUSE_AFTER.plus(SLACK).toNanos();
      long window = silentUntil - pausedFrom;
      int whilePaused = startedBetween(log, pausedFrom, silentUntil);
      int sameTimeBefore = startedBetween(log, silentFrom - window, silentFrom);
      int beforePause = startedBetween(log, silentFrom, silentFrom + PAUSE_AFTER.toNanos());
      CrawledOnce crawled = CrawledOnce.of(log, expected);
      System.out.printf("broker silence test: requests started in the %.1f s before the silence %d, in its first "
          + "%d s %d, from then until it ended %d; pauses a node %s; pages requested twice %d (bound %d)%n",
          window / 1e9, sameTimeBefore, PAUSE_AFTER.toSeconds(), beforePause, whilePaused, pauses,
          crawled.twice().size(), BrokerOutageCrawl.BOUND);
      // Controls: the check sees requests where there are some, and the nodes do go on requesting in a silence
      // until they pause (links waiting for the broker's acknowledgement hold most hosts' queues, not all).
      assertThat(sameTimeBefore).as("control: requests started in as long a stretch just before the silence")
          .isGreaterThan(0);
      assertThat(beforePause).as("control: requests started in the silence before the pause").isGreaterThan(0);
      assertThat(whilePaused).as("requests started from " + PAUSE_AFTER.plus(SLACK).toMillis()
          + " ms into the silence until it ended").isZero();
      assertThat(pauses).as("times each node paused").allMatch(n -> n >= 1);
      BrokerOutageCrawl.assertCrawledPolitely(log, expected, hosts);
    }
  }

  private static int startedBetween(RequestLog log, long fromNanos, long untilNanos) {
    return (int) log.all().stream().filter(r -> r.startNanos() >= fromNanos && r.startNanos() < untilNanos).count();
  }
}
