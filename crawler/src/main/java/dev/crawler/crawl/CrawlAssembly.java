package dev.crawler.crawl;

import com.google.common.collect.Lists;
import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.dedup.UrlSeenService;
import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.Fetcher;
import dev.crawler.frontier.HostQueues;
import dev.crawler.intake.LinkIntake;
import dev.crawler.parse.PageParser;
import dev.crawler.parse.SitemapReader;
import dev.crawler.queue.DiskQueueKeyRecord;
import dev.crawler.queue.QueueBy;
import dev.crawler.queue.QueueKeyRecord;
import dev.crawler.queue.QueueKeys;
import dev.crawler.record.CrawlLog;
import dev.crawler.record.CrawlLogEntry;
import dev.crawler.record.CrawlOutcome;
import dev.crawler.record.WarcRecorder;
import dev.crawler.robots.DiskRobotsStore;
import dev.crawler.robots.RobotsCache;
import dev.crawler.robots.RobotsStore;
import dev.crawler.scope.PageBudget;
import dev.crawler.scope.Scope;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.StatsReporter;
import dev.crawler.stats.StatsSnapshot;
import dev.crawler.stats.VisitWatch;
import dev.crawler.status.CrawlStatus;
import dev.crawler.store.StorageFailure;
import dev.crawler.url.FetchableUrls;
import dev.crawler.visit.VisitPipeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds every part of a crawl from its configuration, in order, and closes them in reverse:
 * the crawl folder's lock, the URL-seen service, the frontier, the fetcher, the stats, the WARC
 * files and the crawl log, robots.txt, scope, page budget and queue keys, the intake, the stats
 * reporter, the status page and metrics, and the visit's stages. The one place that reads the crawl's {@link CrawlConfig}
 * (with the option mappings of {@link CrawlSetup}); every part gets plain values.
 */
final class CrawlAssembly implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CrawlAssembly.class);

  final CrawlDirectory dir;
  /** The crawl's run settings, as plain values. */
  final int workers;
  final Optional<Duration> maxDuration;
  /** The command that continues this crawl, for messages. */
  final String resumeCommand;
  /** Where the URLs are checked, queued and leased from: here, or a cluster node's partitions. */
  final CrawlPlacement placement;
  final HostQueues frontier;
  /** What is in scope; a node's learns the seeds that come after it started. */
  final Scope scope;
  final CrawlStats stats;
  final StatsReporter reporter;
  final VisitPipeline visits;
  final StopSignal stop;
  /** The seeds in their normal form. */
  final List<String> seeds;
  /** Every part that needs closing, the last opened on top. */
  private final Deque<AutoCloseable> opened;

  private CrawlAssembly(CrawlConfig config, Deque<AutoCloseable> opened, CrawlDirectory dir,
      CrawlPlacement placement, Scope scope, CrawlStats stats, StatsReporter reporter, VisitPipeline visits, StopSignal stop,
      List<String> seeds) {
    this.workers = config.fetch().workers();
    this.maxDuration = config.crawl().limits().maxDuration();
    this.resumeCommand = resumeCommand(config);
    this.opened = opened;
    this.dir = dir;
    this.placement = placement;
    this.scope = scope;
    this.frontier = placement.queues();
    this.stats = stats;
    this.reporter = reporter;
    this.visits = visits;
    this.stop = stop;
    this.seeds = seeds;
  }

  /**
   * Opens the crawl folder and every part. A NEW crawl refuses a folder that holds one, and
   * queues its seeds; a RESUME reopens the frontier and the filter where they were.
   */
  static String resumeCommand(CrawlConfig config) {
    return "bin/crawler resume --config " + config.source();
  }

  static CrawlAssembly open(CrawlConfig config, Crawl.Start start, CrawlEnvironment env) throws IOException {
    config.requireReadyToCrawl();
    boolean node = env.placement().isPresent();
    if (config.cluster().enabled() && !node) {
      // A crawl that ignored the section would fetch hosts that a cluster's nodes own.
      throw new CrawlStartException(config.source() + " has a cluster section (cluster.bootstrap-servers): this "
          + "command crawls on this machine alone; start a node of the cluster with `bin/crawler node --config "
          + config.source() + "`, or remove the section to crawl here");
    }
    if (node && !config.cluster().enabled()) {
      throw new CrawlStartException(config.source() + " has no cluster section: a node needs cluster.bootstrap-servers "
          + "and cluster.name");
    }
    Path root = config.crawl().dataDir();
    // Before anything is created: the sizes alone decide, so the folder given here does not matter.
    CrawlSetup.checkFitsTheHeap(CrawlSetup.seen(config, root), CrawlSetup.frontier(config),
        Runtime.getRuntime().maxMemory());
    log.info(CrawlMemory.of(config).summary(Runtime.getRuntime().maxMemory()));
    boolean holds = CrawlDirectory.holdsCrawl(root);
    if (start == Crawl.Start.NEW && holds) {
      // No advice to delete it: the crawl there may be running (the lock is not checked yet).
      throw new CrawlStartException(root + " already holds a crawl: continue it with `" + resumeCommand(config)
          + "`, or set crawl.data-dir to another folder to start afresh");
    }
    if (start == Crawl.Start.RESUME && !holds) {
      throw new CrawlStartException("nothing to resume in " + root + ": start a crawl with `bin/crawler crawl --config "
          + config.source() + "`");
    }
    UrlNormalizer normalizer = new UrlNormalizer(CrawlSetup.normalizer(config));
    // A new crawl's seeds are read and checked before anything is created: a bad seed file leaves no folder behind.
    // A node has no seeds of its own: they come from the crawl's topics (`crawler cluster seed`).
    List<String> newSeeds = start != Crawl.Start.NEW ? null : node ? List.of() : newSeeds(config, env, normalizer);
    if (newSeeds != null && !node && !config.scope().allowPrivateAddresses()) {
      Map<String, String> refused = RefusedSeeds.ifAllRefused(newSeeds, env.dns());
      if (!refused.isEmpty()) {
        throw new CrawlStartException(RefusedSeeds.message(refused));
      }
    }
    Set<String> entriesBefore = Set.of();   // listed under the lock, below
    Deque<AutoCloseable> opened = new ArrayDeque<>();
    CrawlDirectory locked = null;
    try {
      CrawlDirectory dir = CrawlDirectory.lock(root);
      locked = dir;
      opened.push(dir);
      // Again under the lock: another process may have made (or finished) a crawl here since the
      // checks above, and a failed start must not take its files for ours when it cleans up.
      entriesBefore = CrawlDirectory.entries(root);
      if (CrawlDirectory.holdsCrawl(root) != (start == Crawl.Start.RESUME)) {
        throw new CrawlStartException(root + (start == Crawl.Start.NEW ? " has held a crawl since this command began"
            : " no longer holds a crawl") + ": another process used the folder meanwhile; run the command again");
      }
      List<String> seeds;
      if (start == Crawl.Start.NEW) {
        Files.write(dir.seeds(), newSeeds, StandardCharsets.UTF_8);
        FixedSettingsRecord.write(root, CrawlSetup.normalizer(config), CrawlSetup.queueBy(config));
        seeds = newSeeds;
      } else {
        FixedSettingsRecord.check(root, CrawlSetup.normalizer(config), CrawlSetup.queueBy(config),
            config.source().toString());
        seeds = node ? List.of() : admitSeeds(SeedFile.read(dir.seeds()), normalizer, dir.seeds().toString());
      }

      CrawlStats stats = new CrawlStats();
      Optional<StatsSnapshot> before = savedTotals(dir, config.output().crawlLog());
      before.ifPresent(stats::restore);
      CrawlPlacement placement = node ? env.placement().get().open(root, stats)
          : LocalPlacement.open(CrawlSetup.seen(config, dir.seen()), dir.frontier(), CrawlSetup.frontier(config), stats);
      opened.push(placement);
      HostQueues frontier = placement.queues();
      String userAgent = config.crawl().userAgent().header(CrawlerVersion.version());
      Fetcher fetcher = new Fetcher(CrawlSetup.fetcher(config, userAgent, env.dns()));
      opened.push(fetcher);

      WarcRecorder warc = null;
      if (config.output().warc()) {
        warc = new WarcRecorder(dir.warc(), "crawl", config.output().warcMaxFileSize().bytes(),
            config.output().warcCompressionLevel(),
            "crawler/" + CrawlerVersion.version());
        opened.push(warc);
      }
      CrawlLog crawlLog = null;
      if (config.output().crawlLog()) {
        crawlLog = new CrawlLog(dir.crawlLog());
        opened.push(crawlLog);
        stats.countWith(crawlLog);
      }
      RobotsStore robotsStore = DiskRobotsStore.open(dir.robots());
      opened.push(robotsStore);
      RobotsCache robots = new RobotsCache(fetcher, config.crawl().userAgent().name(), config.robots().cacheHosts(),
          config.robots().cacheExpiry(), VisitPipeline.ROBOTS_UNAVAILABLE_RETRY, InstantSource.system(),
          robotsRecorder(warc, crawlLog, stats), robotsStore);
      Scope scope = new Scope(CrawlSetup.scope(config));
      CrawlConfig.Limits limits = config.crawl().limits();
      PageBudget budget = new PageBudget(limits.maxPages().orElse(Long.MAX_VALUE),
          limits.maxPagesPerHost().orElse(Long.MAX_VALUE));
      QueueBy queueBy = CrawlSetup.queueBy(config);
      QueueKeyRecord decidedKeys = null;
      if (queueBy == QueueBy.IP) {
        decidedKeys = DiskQueueKeyRecord.open(dir.queueKeys());
        opened.push(decidedKeys);
      }
      QueueKeys queueKeys = queueBy.keys(env.dns(), decidedKeys);
      opened.push(queueKeys);   // closed before its record
      LinkIntake intake = new LinkIntake(normalizer, scope, queueKeys, placement.admitted(), stats);
      seeds.forEach(scope::addSeed);
      if (start == Crawl.Start.RESUME && budget.limited()) {
        restoreBudget(budget, config, dir, before, scope);
      }

      StatsReporter reporter = new StatsReporter(stats, frontier::stats, placement::seenStats, dir.statsJson(),
          config.stats().interval(), InstantSource.system());
      reporter.labelled(placement.label());
      reporter.endedWith(placement::statsTail);
      opened.push(reporter);
      VisitWatch watch = VisitWatch.NONE;
      if (config.status().listen().isPresent()) {
        CrawlStatus status = startStatus(config, dir, placement.nativeMemory());
        opened.push(status);
        status.register(placement.gauges());
        reporter.publishTo(status.reports());
        watch = status.watch();
      }
      StopSignal stop = new StopSignal();
      boolean sitemaps = config.robots().sitemaps();
      // The stages of a visit, in the order they run.
      VisitPipeline visits = VisitPipeline.builder(frontier)
          .urlCheck()
          .robots(robots, intake, sitemaps)
          .queueGate()
          .pageBudget(budget, () -> stop.stop(StopReason.MAX_PAGES))
          .fetch(fetcher, sitemaps)
          .warc(warc)
          .response(intake, config.fetch().maxRedirects())
          .links(new PageParser(config.parse().obeyRelNofollow(), CrawlSetup.MAX_LINKS_PER_PAGE),
              new SitemapReader(CrawlSetup.MAX_URLS_PER_SITEMAP), intake, sitemaps)
          .recordedIn(crawlLog, stats, watch)
          .build();
      CrawlAssembly crawl = new CrawlAssembly(config, opened, dir, placement, scope, stats, reporter, visits, stop, seeds);
      if (start == Crawl.Start.NEW) {
        int queued = takeSeeds(intake, seeds);
        dir.markSeedsQueued();
        if (!node) {
          log.info("New crawl in {}: {} seeds, {} queued", root, seeds.size(), queued);
        }
      } else {
        if (!dir.seedsQueued()) {
          // Stopped while its seeds were being queued (a kill): queue them again. The URL-seen
          // service answers SEEN for those of the batches recorded before the kill; the batch in
          // flight at the kill was queued and not recorded, so its seeds are queued twice.
          int queued = takeSeeds(intake, seeds);
          dir.markSeedsQueued();
          log.info("The crawl had stopped before its seeds were all queued: {} more queued", queued);
        }
        if (placement instanceof LocalPlacement local) {
          UrlSeenService seen = local.seen();
          log.info("Resuming the crawl in {}: {} URLs queued in {} hosts, filter {} ({})", root,
              frontier.stats().queuedUrls(), frontier.stats().hosts(), seen.recovery().name().toLowerCase(Locale.ROOT),
              seen.recovery() == UrlSeenService.Recovery.REBUILT ? "after an unclean stop" : "clean stop");
        }
      }
      return crawl;
    } catch (IOException | RuntimeException e) {
      opened.remove(locked);
      closeAll(opened, e);
      if (locked != null) {
        if (start == Crawl.Start.NEW) {
          // Half-made state would pass for a crawl (`resume` would find an empty frontier): remove it, under the lock.
          CrawlDirectory.removeCreatedSince(root, entriesBefore, e);
        }
        closeAll(new ArrayDeque<>(List.of(locked)), e);
      }
      if (StorageFailure.isDiskFull(e)) {
        throw new IOException("the disk is full: " + e.getMessage() + "; nothing was started: free space on the disk of "
            + root + " and run the command again", e);
      }
      if (e instanceof RuntimeException && StorageFailure.is(e)) {
        throw new IOException("a storage error: " + e.getMessage() + "; nothing was started", e);
      }
      throw e;
    }
  }


  /** The status page and metrics on status.listen; an address in use stops the start with what to change. */
  private static CrawlStatus startStatus(CrawlConfig config, CrawlDirectory dir, CrawlStatus.NativeMemory memory) {
    try {
      return CrawlStatus.start(config.status().listen().orElseThrow(),
          new CrawlStatus.About(CrawlerVersion.version(), dir.root, config.toYaml(),
              config.politeness().errorBackoff().suspendAfter()),
          memory,
          dir.statusAddress());
    } catch (IOException e) {
      throw new CrawlStartException(e.getMessage());
    }
  }

  /**
   * The normal forms of a new crawl's seeds, from the caller's list or the seed file; they are
   * copied into the crawl folder so that a resume does not depend on the original file.
   */
  private static List<String> newSeeds(CrawlConfig config, CrawlEnvironment env, UrlNormalizer normalizer)
      throws IOException {
    if (!env.seedUrls().isEmpty()) {
      List<SeedFile.Seed> given = new ArrayList<>();
      for (String url : env.seedUrls()) {
        given.add(new SeedFile.Seed(given.size() + 1, url));
      }
      return admitSeeds(given, normalizer, "the seeds given");
    }
    Path file = env.seedFile().orElse(config.crawl().seeds());
    return admitSeeds(SeedFile.read(file), normalizer, file.toString());
  }

  /** Seeds taken in at a time: a kill while they are queued queues at most this many twice (see LinkIntake). */
  static final int SEED_BATCH = 1_000;

  /**
   * Takes the seeds in, a batch at a time: a kill between a batch's frontier write and its
   * URL-seen record queues that batch again on resume, so the batch bounds what is fetched twice.
   */
  private static int takeSeeds(LinkIntake intake, List<String> seeds) {
    int queued = 0;
    for (List<String> batch : Lists.partition(seeds, SEED_BATCH)) {
      queued += intake.take(batch, 0, null, 0);
    }
    return queued;
  }

  /** Normal forms of the seeds; a seed the normalizer refuses is reported with its line. */
  private static List<String> admitSeeds(List<SeedFile.Seed> lines, UrlNormalizer normalizer, String source) {
    List<String> seeds = new ArrayList<>();
    for (SeedFile.Seed line : lines) {
      if (FetchableUrls.confirm(normalizer.normalize(line.url())) instanceof UrlNormalization.Accepted accepted) {
        seeds.add(accepted.url());
      } else {
        log.warn("Seed on line {} of {} is not a crawlable http(s) URL, skipped: {}", line.line(), source, line.url());
      }
    }
    if (seeds.isEmpty()) {
      throw new CrawlStartException("no usable seed URL in " + source + (lines.isEmpty() ? " (it has none)" : "")
          + ": give at least one http(s) URL, one a line, such as https://www.example.com/");
    }
    return seeds;
  }

  /**
   * Sets what a resumed crawl has already spent of its page limits: from the crawl log, exact
   * and per host; without a crawl log (output.crawl-log: false), the total from stats.json,
   * which may be up to one stats interval behind after a kill.
   */
  private static void restoreBudget(PageBudget budget, CrawlConfig config, CrawlDirectory dir,
      Optional<StatsSnapshot> before, Scope scope) throws IOException {
    long fromStats = before.map(StatsSnapshot::requested).orElse(0L);
    if (config.output().crawlLog()) {
      SpentPages.Counts spent = SpentPages.count(dir.crawlLog(), scope::hostKey, budget.limitedPerHost());
      // The larger count: a run before this one may have had the crawl log off (then the log
      // holds fewer pages than were spent, or none), and stats.json counted them all.
      budget.restore(Math.max(spent.total(), fromStats), spent.perHost());
      if (spent.unreadableLines() > 0) {
        log.warn("{} line(s) of {} are not crawl-log lines (a line cut by a kill is one) and were not counted"
            + " against the page limits", spent.unreadableLines(), dir.crawlLog());
      }
      return;
    }
    budget.restore(fromStats, Map.of());
    if (budget.limitedPerHost()) {
      log.warn("Without a crawl log (output.crawl-log: false) the pages each host had before the resume are"
          + " unknown: crawl.limits.max-pages-per-host counts again from zero");
    }
  }

  /**
   * The totals of the runs before: stats.json's, plus the crawl-log lines written after it, which
   * a kill -9 leaves uncounted there (see {@link LoggedSinceStats}).
   */
  private static Optional<StatsSnapshot> savedTotals(CrawlDirectory dir, boolean crawlLogOn) throws IOException {
    Optional<StatsSnapshot> saved = Files.exists(dir.statsJson())
        ? Optional.of(StatsSnapshot.readFrom(dir.statsJson())) : Optional.empty();
    if (!crawlLogOn) {
      return saved;
    }
    long countedUpTo = saved.map(StatsSnapshot::crawlLogBytes).orElse(0L);
    LoggedSinceStats.Tail tail = LoggedSinceStats.count(dir.crawlLog(), countedUpTo);
    if (tail.lines() == 0) {
      return saved;
    }
    log.info("{} line(s) of {} came after the last stats.json (the crawl was killed, not stopped): counted into the"
        + " totals", tail.lines(), dir.crawlLog());
    return Optional.of(saved.orElse(StatsSnapshot.EMPTY).plus(tail.counts()));
  }

  /** The crawl-log detail of a robots.txt fetch's line, which is not a page. */
  static final String ROBOTS_TXT_DETAIL = "robots.txt";

  /** Every robots.txt fetch goes to the WARC files, the crawl log and the stats like a page. */
  private static Consumer<FetchResult> robotsRecorder(WarcRecorder warc, CrawlLog crawlLog,
      CrawlStats stats) {
    return result -> {
      if (warc != null) {
        warc.record(result);
      }
      if (crawlLog == null) {
        stats.robotsFetch();
        return;
      }
      // A redirect is followed by its status line, its body's fate aside (RobotsReader): logged as answered.
      CrawlOutcome outcome = result.status().answered() || result.isRedirect()
          ? CrawlOutcome.FETCHED : CrawlOutcome.ofFailure(result.status());
      crawlLog.log(new CrawlLogEntry(result.startedAt(), outcome, result.httpStatus(), result.body().length,
          result.duration(), result.url(), null, result.contentType(), 0, ROBOTS_TXT_DETAIL), stats::robotsFetch);
    };
  }

  /**
   * Closes every part in reverse order of opening. After a failure (a full disk) parts may fail
   * to close too; that was expected and already reported, so with {@code afterFailure} each such
   * part gets one WARN line instead of an exception.
   */
  void close(boolean afterFailure) {
    if (!afterFailure) {
      closeAll(opened, null);
      return;
    }
    while (!opened.isEmpty()) {
      AutoCloseable part = opened.pop();
      try {
        part.close();
      } catch (Exception e) {
        log.warn("After the failure, {} did not close cleanly: {}; {}", part.getClass().getSimpleName(),
            e.getMessage(), part instanceof CrawlLog ? "every line it wrote is on disk"
                : "a resume recovers it from what is on disk");
        log.debug("Cause", e);
      }
    }
  }

  @Override
  public void close() {
    close(false);
  }

  private static void closeAll(Deque<AutoCloseable> opened, Exception primary) {
    RuntimeException failure = null;
    while (!opened.isEmpty()) {
      AutoCloseable part = opened.pop();
      try {
        part.close();
      } catch (Exception e) {
        if (primary != null) {
          primary.addSuppressed(e);
        } else if (failure == null) {
          failure = new IllegalStateException("closing " + part.getClass().getSimpleName() + " failed: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
