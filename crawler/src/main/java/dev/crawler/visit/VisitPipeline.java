package dev.crawler.visit;

import dev.crawler.fetch.Fetcher;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.HostQueues;
import dev.crawler.frontier.Lease;
import dev.crawler.intake.LinkIntake;
import dev.crawler.parse.PageParser;
import dev.crawler.parse.SitemapReader;
import dev.crawler.record.CrawlLog;
import dev.crawler.record.WarcRecorder;
import dev.crawler.robots.RobotsCache;
import dev.crawler.scope.PageBudget;
import dev.crawler.stats.CrawlStats;
import dev.crawler.stats.VisitWatch;
import dev.crawler.store.StorageFailure;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the crawl does with one leased URL: its stages, in order, until one says the visit is
 * done or leaves the lease open; then the visit's crawl-log line and count, and the lease's
 * completion with the outcome that schedules its host. Built by the crawl's assembly, which
 * lists the stages; one instance serves all workers.
 *
 * <p>The lease is completed whatever a stage throws (as FAILED, so a URL that breaks a stage is
 * not retried forever), but for a failure of the crawl's storage (a full disk) or an
 * {@link Error}: then what the visit wrote may be incomplete, the crawl stops, and the open lease
 * makes a resume visit the URL again.
 */
public final class VisitPipeline {
  /** How long a URL waits when its host's robots.txt cannot be read (RFC 9309 2.3.1.4: disallow for now). */
  public static final Duration ROBOTS_UNAVAILABLE_RETRY = RobotsCheck.ROBOTS_UNAVAILABLE_RETRY;
  /** Times one URL is put back (429 or 503, robots.txt unavailable) before it is given up. */
  public static final int MAX_RETRIES = Retries.MAX_RETRIES;

  private final List<VisitStage> stages;
  private final HostQueues frontier;
  private final VisitLog log;
  private final Retries retries;

  private VisitPipeline(List<VisitStage> stages, HostQueues frontier, VisitLog log, Retries retries) {
    if (stages.isEmpty()) {
      throw new IllegalArgumentException("a visit needs at least one stage");
    }
    this.stages = List.copyOf(stages);
    this.frontier = frontier;
    this.log = log;
    this.retries = retries;
  }

  /** Visits the lease's URL and completes the lease, unless a stage left it open (see {@link Step.LeaveOpen}). */
  public void visit(Lease lease, BooleanSupplier aborted) {
    FetchOutcome scheduling = FetchOutcome.FAILED;   // if anything below throws, the URL is not retried forever
    boolean complete = true;
    try {
      Visit visit = new Visit(lease, aborted);
      Step step = run(visit);
      if (step instanceof Step.Done done) {
        if (done.outcome() != null) {
          log.record(lease, done.outcome(), visit.result(), done.note());
        }
        scheduling = done.scheduling();
        retries.ended(lease, scheduling);
      } else {
        complete = false;
      }
    } catch (RuntimeException e) {
      if (StorageFailure.is(e)) {
        complete = false;
      }
      throw e;
    } catch (Error e) {
      complete = false;   // out of memory, say: the crawl stops, and a resume visits the URL again
      throw e;
    } finally {
      if (complete) {
        complete(lease, scheduling);
      }
    }
  }

  private Step run(Visit visit) {
    for (VisitStage stage : stages) {
      Step step = stage.apply(visit);
      if (!(step instanceof Step.Next)) {
        return step;
      }
    }
    throw new IllegalStateException("every stage of the visit of " + visit.lease().url()
        + " said go on: the last stage must end the visit");
  }

  /**
   * Ends the lease. Should the frontier refuse the outcome for a reason other than its storage (a
   * bug), the lease is ended as FAILED instead: a lease left open keeps its host from ever being
   * served again, and the crawl from ever finishing.
   */
  private void complete(Lease lease, FetchOutcome scheduling) {
    try {
      frontier.complete(lease, scheduling);
    } catch (RuntimeException e) {
      if (StorageFailure.is(e) || scheduling.kind() == FetchOutcome.Kind.FAILED) {
        throw e;
      }
      try {
        frontier.complete(lease, FetchOutcome.FAILED);
      } catch (RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  /** Builds the pipeline: the stages are added in the order they run. */
  public static Builder builder(HostQueues frontier) {
    return new Builder(frontier);
  }

  /**
   * The parts the standard stages share, and the list. The crawl's assembly adds each stage with
   * one line, in order.
   */
  public static final class Builder {
    private final HostQueues frontier;
    private final Retries retries = new Retries();
    private final RobotsLookups lookups = new RobotsLookups();
    private final RequestTurns turns;
    private final ArrayList<VisitStage> stages = new ArrayList<>();
    private VisitLog log;

    private Builder(HostQueues frontier) {
      this.frontier = frontier;
      this.turns = new RequestTurns(frontier);
    }

    public Builder then(VisitStage stage) {
      stages.add(stage);
      return this;
    }

    public Builder urlCheck() {
      return then(new UrlCheck());
    }

    /** The queue gate before the page's request (see {@link QueueGate}). */
    public Builder queueGate() {
      return then(new QueueGate(frontier, lookups));
    }

    public Builder robots(RobotsCache robots, LinkIntake intake,
        boolean followSitemaps) {
      return then(new RobotsCheck(frontier, robots, new RobotsApplied(RobotsApplied.HostDelays.of(frontier), intake,
          followSitemaps), retries, lookups, turns));
    }

    public Builder pageBudget(PageBudget budget, Runnable crawlBudgetSpent) {
      return then(new PageBudgetCheck(budget, crawlBudgetSpent));
    }

    public Builder fetch(Fetcher fetcher, boolean followSitemaps) {
      return then(new Fetch(fetcher, turns, followSitemaps));
    }

    /** The WARC stage; none when {@code warc} is null (output.warc off). */
    public Builder warc(WarcRecorder warc) {
      return warc == null ? this : then(new WarcRecord(warc));
    }

    public Builder response(LinkIntake intake, int maxRedirects) {
      return then(new ResponseCheck(intake, maxRedirects, retries));
    }

    public Builder links(PageParser parser, SitemapReader sitemaps,
        LinkIntake intake, boolean followSitemaps) {
      return then(new FollowLinks(parser, sitemaps, intake, followSitemaps));
    }

    /** Where each visit's line and count go: the crawl log (null when it is off) and the stats. */
    public Builder recordedIn(CrawlLog crawlLog, CrawlStats stats) {
      return recordedIn(crawlLog, stats, VisitWatch.NONE);
    }

    /** As {@link #recordedIn(CrawlLog, CrawlStats)}, and each settled visit told to {@code watch}. */
    public Builder recordedIn(CrawlLog crawlLog, CrawlStats stats, VisitWatch watch) {
      this.log = new VisitLog(crawlLog, stats, watch);
      return this;
    }

    public VisitPipeline build() {
      if (log == null) {
        throw new IllegalStateException("recordedIn(crawlLog, stats) was not called");
      }
      return new VisitPipeline(stages, frontier, log, retries);
    }
  }
}
