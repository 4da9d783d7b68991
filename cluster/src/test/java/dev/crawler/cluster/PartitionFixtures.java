package dev.crawler.cluster;

import dev.crawler.dedup.UrlSeenService;
import dev.crawler.frontier.FetchOutcome;
import dev.crawler.frontier.Frontier;
import dev.crawler.frontier.FrontierOptions;
import dev.crawler.frontier.Lease;
import dev.crawler.frontier.Partitions;
import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** URLs of one partition, small state options, and a frontier drained to its last URL: for the partition tests and the bench. */
final class PartitionFixtures {
  private PartitionFixtures() {}

  /** Small caches, no politeness delay, sized for {@code expectedUrls}. */
  static PartitionState.Options options(long expectedUrls, boolean sync) {
    FrontierOptions frontier = FrontierOptions.builder().defaultDelay(Duration.ZERO).blockCacheBytes(16L << 20)
        .memtableBytes(8L << 20).build();
    return new PartitionState.Options(expectedUrls, 0.01, UrlSeenService.FalsePositivePolicy.VERIFY, 1 << 14,
        8L << 20, frontier, sync);
  }

  /** {@code count} URLs spread over the first {@code hosts} hosts that fall in {@code partition} of {@code partitions}. */
  static List<AdmittedUrl> urlsOf(int partition, int partitions, int hosts, int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < hosts; i++) {
      String host = "h" + i + ".example.com";
      if (Partitions.of(host, partitions) == partition) {
        keys.add(host);
      }
    }
    List<AdmittedUrl> urls = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      String host = keys.get(n % hosts);
      String via = "https://" + host + "/doc/" + (n / hosts) + "/index.html";
      urls.add(new AdmittedUrl(CrawlUrl.of("https://" + host + "/doc/" + n + ".html"), host, 1 + n % 7, via, 0));
    }
    return urls;
  }

  /** Leases and completes every URL of the frontier; returns them in the order handed out. */
  static List<String> drain(Frontier frontier) throws InterruptedException {
    List<String> urls = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (frontier.stats().queuedUrls() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the frontier still holds " + frontier.stats().queuedUrls() + " URLs after 120 s");
      }
      Optional<Lease> lease = frontier.next(Duration.ofMillis(100));
      if (lease.isPresent()) {
        urls.add(lease.get().url());
        frontier.complete(lease.get(), FetchOutcome.FETCHED);
      }
    }
    return urls;
  }
}
