package dev.crawler.crawl;

import dev.crawler.dedup.UrlSeenService;
import dev.crawler.dedup.UrlSeenStats;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.HostQueues;
import dev.crawler.intake.AdmittedUrls;
import dev.crawler.intake.SeenThenQueued;
import dev.crawler.scope.Scope;
import dev.crawler.stats.CrawlStats;
import dev.crawler.status.CrawlStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** A crawl on one machine: its URL-seen service and its frontier, in the crawl folder. */
final class LocalPlacement implements CrawlPlacement {
  private final UrlSeenService seen;
  private final Frontier frontier;
  private final SeenThenQueued intake;

  private LocalPlacement(UrlSeenService seen, Frontier frontier, CrawlStats stats) {
    this.seen = seen;
    this.frontier = frontier;
    this.intake = new SeenThenQueued(seen, frontier, stats);
  }

  /** Opens URL-seen, then the frontier; a frontier that fails to open closes URL-seen again. */
  static LocalPlacement open(UrlSeenService.Options seenOptions, Path frontierDir,
      FrontierOptions frontierOptions, CrawlStats stats) throws IOException {
    UrlSeenService seen = UrlSeenService.open(seenOptions);
    try {
      return new LocalPlacement(seen, Frontier.open(frontierDir, frontierOptions), stats);
    } catch (RuntimeException e) {
      try {
        seen.close();
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  UrlSeenService seen() {
    return seen;
  }

  Frontier frontier() {
    return frontier;
  }

  @Override
  public HostQueues queues() {
    return frontier;
  }

  @Override
  public AdmittedUrls admitted() {
    return intake;
  }

  @Override
  public UrlSeenStats seenStats() {
    return seen.stats();
  }

  @Override
  public CrawlStatus.NativeMemory nativeMemory() {
    return new CrawlStatus.NativeMemory(frontier::blockCacheBytes, frontier::memtableBytes, seen::storeMemoryBytes);
  }

  @Override
  public boolean endsWhenEmpty() {
    return true;
  }

  @Override
  public void start(Scope scope, Consumer<RuntimeException> failure) {
    // The seeds were queued when the crawl was made: nothing comes from outside.
  }

  /** The frontier first, then URL-seen, which saves its filter. */
  @Override
  public void close() throws IOException {
    try {
      frontier.close();
    } finally {
      seen.close();
    }
  }
}
