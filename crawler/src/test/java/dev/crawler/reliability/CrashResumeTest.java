package dev.crawler.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.crawl.TotalsAgainstTheLog;
import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.stats.StatsSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real crawl process ({@code crawler crawl}, then {@code crawler resume}) killed with SIGKILL at
 * random moments and resumed each time, then left to finish; checked against the demo site's
 * request log (it lives in this JVM, so it saw every run) and against the crawl's own crawl log.
 *
 * <p>CI runs 5 kills of a 5,500-page site. {@code bin/crash-test} runs the same test longer
 * through system properties: {@code crash.kills}, {@code crash.pages} (total, over
 * {@code crash.hosts} hosts), {@code crash.workers}, {@code crash.seed} (the kill moments).
 */
class CrashResumeTest {
  static final int KILLS = Integer.getInteger("crash.kills", 5);
  static final int HOSTS = Integer.getInteger("crash.hosts", 50);
  static final int PAGES = Integer.getInteger("crash.pages", 5_500);
  static final int WORKERS = Integer.getInteger("crash.workers", 8);
  static final long SEED = Long.getLong("crash.seed", 6L);
  /** Kills come between these shares of the site's expected requests, one in each of KILLS equal slices. */
  static final double FIRST_KILL = 0.05;
  static final double LAST_KILL = 0.9;
  /** Requests a run makes at least before it is killed. */
  static final int MIN_REQUESTS_PER_RUN = 20;
  /** Generous: a run that takes longer is stuck, not slow. */
  static final Duration RUN_LIMIT = Duration.ofSeconds(120 + PAGES / 50);

  static DemoSite site;
  static Set<String> expected;
  static KillAudit audit;
  static Map<String, Long> requested;
  static List<CrawlLogEntry> crawlLog;
  static StatsSnapshot finalTotals;
  static int unreadableLines;
  static int lastExit;
  static List<String> outputs = new ArrayList<>();
  static long millis;

  @BeforeAll
  static void crawlWithKills(@TempDir Path dir) throws Exception {
    long started = System.nanoTime();
    // Small pages with fewer links than the demo's keep the crawl short on two busy cores.
    site = DemoSite.start(DemoSiteSpec.generated(HOSTS, Math.max(1, PAGES / HOSTS)).withPageShape(24, 4_000));
    expected = site.expectedFetches(host -> true);
    Path config = CrawlerProcess.config(dir, WORKERS, expected.size() * 4L);
    Path seeds = CrawlerProcess.seedFile(site, dir);
    Path hosts = CrawlerProcess.hostsFile(site, dir);
    RequestLog log = site.requests();

    Random random = new Random(SEED);
    List<KillAudit.Kill> kills = new ArrayList<>();
    double slice = (LAST_KILL - FIRST_KILL) / KILLS;
    for (int k = 1; k <= KILLS + 1; k++) {
      String[] args = k == 1
          ? new String[] {"crawl", "--config", config.toString(), "--seeds", seeds.toString()}
          : new String[] {"resume", "--config", config.toString()};
      CrawlerProcess crawler = CrawlerProcess.start(dir, "run-" + k, hosts, args);
      if (k == KILLS + 1) {
        lastExit = crawler.waitFor(RUN_LIMIT);
        outputs.add(crawler.output());
        break;
      }
      double share = FIRST_KILL + slice * (k - 1) + slice * random.nextDouble();
      int target = Math.max((int) (share * expected.size()), log.size() + MIN_REQUESTS_PER_RUN);
      awaitRequests(crawler, log, target);
      Thread.sleep(random.nextInt(25));   // anywhere within a page's handling, not just after a request starts
      long at = System.nanoTime();
      crawler.kill();
      kills.add(new KillAudit.Kill(k, at, System.nanoTime()));
      outputs.add(crawler.output());
    }
    requested = log.countsByUrl();
    crawlLog = readCrawlLog(dir.resolve("crawl").resolve("crawl.log"));
    finalTotals = StatsSnapshot.readFrom(dir.resolve("crawl").resolve("stats.json"));
    audit = new KillAudit(site.port(), kills, log.all(), crawlLog);
    millis = (System.nanoTime() - started) / 1_000_000;
  }

  private static void awaitRequests(CrawlerProcess crawler, RequestLog log, int target) throws InterruptedException {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (log.size() < target) {
      if (!crawler.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("The crawl ended (or stalled) at " + log.size() + " requests, before the kill due at "
            + target + "; its output:\n" + crawler.output());
      }
      Thread.sleep(5);
    }
  }

  /** The crawl log's lines; a line cut by a kill (CrawlLog ends it with a line break) is counted, not parsed. */
  private static List<CrawlLogEntry> readCrawlLog(Path file) throws IOException {
    List<CrawlLogEntry> entries = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (CrawlLogEntry.isComment(line)) {
        continue;
      }
      try {
        entries.add(CrawlLogEntry.parse(line));
      } catch (IllegalArgumentException cut) {
        unreadableLines++;
      }
    }
    return entries;
  }

  @AfterAll
  static void reportAndStop() {
    if (audit != null) {
      List<Integer> inFlight = audit.kills().stream().map(k -> audit.inFlightAt(k).size()).toList();
      List<Integer> leased = audit.kills().stream().map(k -> audit.leasedAt(k).size()).toList();
      List<Integer> held = audit.kills().stream().map(k -> audit.heldAt(k).size()).toList();
      System.out.printf("%nCrash test: %d kills, %d hosts, %,d expected URLs, %,d requests (robots.txt included) in %.1f s%n"
              + "  in flight at each kill (site's log): %s; refetched after each kill: %s, of them held by a worker: %s%n"
              + "  URLs requested more than once: %d (%d extra requests; workers x kills = %d); "
              + "twice in one run: %d%n"
              + "  crawl log: %,d lines, %d unreadable (cut by a kill), %d URLs settled more than once%n%n",
          KILLS, HOSTS, expected.size(), site.requests().size(), millis / 1000.0, inFlight, leased, held,
          audit.requestedMoreThanOnce().size(), audit.extraRequests(), WORKERS * KILLS,
          audit.requestedTwiceInOneRun().size(), crawlLog.size(), unreadableLines, audit.settledMoreThanOnce().size());
    }
    if (site != null) {
      site.close();
    }
  }

  @Test
  void theLastResumeFinishesTheCrawl() {
    assertThat(lastExit).as(last()).isZero();
    assertThat(last()).contains("Crawl ended: the frontier is empty.");
  }

  @Test
  void everyReachablePageIsRequestedAndNothingElse() {
    assertThat(requested.keySet()).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void everyKillCameWhileTheCrawlWasFetching() {
    assertThat(audit.kills()).hasSize(KILLS);
    assertThat(audit.kills()).allSatisfy(k -> assertThat(audit.inFlightAt(k).size() + audit.leasedAt(k).size())
        .as("requests in flight or refetched at kill %s", k.number()).isPositive());
  }

  @Test
  void pagesRefetchedAfterAKillAreAtMostOnePerWorkerBesidesTheLinksOfThosePages() {
    for (KillAudit.Kill kill : audit.kills()) {
      assertThat(audit.heldAt(kill)).as("URLs requested before kill %s and again after it, not found on a page leased"
                  + " at it:\n  %s", kill.number(),
              audit.leasedAt(kill).stream().map(audit::explain).collect(Collectors.joining("\n  ")))
          .hasSizeLessThanOrEqualTo(WORKERS);
    }
  }

  @Test
  void pagesRequestedMoreThanOnceWereLeasedAtAKillOrFoundInABatchInFlightAtOne() {
    Set<String> leased = audit.leasedAtAnyKill();
    assertThat(audit.requestedMoreThanOnce().keySet())
        .allSatisfy(url -> assertThat(leased.contains(url) || audit.foundOnPageLeasedAtAKill(url))
            .as("%s requested %s times", url, audit.requestedMoreThanOnce().get(url)).isTrue());
  }

  @Test
  void theCrawlLogSettlesEveryExpectedUrl() {
    Set<String> settled = new HashSet<>(audit.settledUrls());
    crawlLog.stream().map(CrawlLogEntry::url).forEach(settled::add);
    assertThat(settled).containsAll(expected);
    assertThat(unreadableLines).isLessThanOrEqualTo(KILLS);
  }

  /**
   * stats.json is rewritten every stats interval, so at each kill it lagged the crawl log; each
   * resume counted the lines past it, and the last clean stop's totals match the log line by line.
   */
  @Test
  void theFinalTotalsCountEveryCrawlLogLineOnce() {
    TotalsAgainstTheLog.assertTotalsMatch(finalTotals, crawlLog);
  }

  @Test
  void noUrlIsSettledTwiceUnlessItWasLeasedAtAKillOrFoundInABatchInFlightAtOne() {
    Set<String> leased = audit.leasedAtAnyKill();
    assertThat(audit.settledMoreThanOnce())
        .allSatisfy(url -> assertThat(leased.contains(url) || audit.foundOnPageLeasedAtAKill(url)).as(url).isTrue());
  }

  @Test
  void noRunLogsAStackTrace() {
    for (int i = 0; i < outputs.size(); i++) {
      assertThat(outputs.get(i)).as("output of run %s", i + 1).doesNotContain("\tat ").doesNotContain("Exception");
    }
  }

  private static String last() {
    return outputs.isEmpty() ? "" : outputs.get(outputs.size() - 1);
  }
}
