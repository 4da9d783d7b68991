package dev.crawler.crawl;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import okhttp3.Dns;

/**
 * What a crawl takes from outside its configuration file: the name resolver (the demo and the
 * tests map names to loopback) and the seeds, when the command line or a caller gives them
 * instead of crawl.seeds.
 *
 * @param dns the resolver the fetcher uses
 * @param seedFile a seed file that replaces crawl.seeds, if present
 * @param seedUrls seed URLs that replace crawl.seeds, if not empty (the demo's)
 * @param placement how a cluster node places its URLs; empty on one machine
 */
public record CrawlEnvironment(Dns dns, Optional<Path> seedFile, List<String> seedUrls,
    Optional<CrawlPlacement.Opener> placement) {
  public static CrawlEnvironment standard() {
    return new CrawlEnvironment(Dns.SYSTEM, Optional.empty(), List.of(), Optional.empty());
  }

  public CrawlEnvironment withSeedFile(Path file) {
    return new CrawlEnvironment(dns, Optional.of(file), seedUrls, placement);
  }

  public CrawlEnvironment withSeeds(List<String> urls) {
    return new CrawlEnvironment(dns, seedFile, List.copyOf(urls), placement);
  }

  public CrawlEnvironment withDns(Dns resolver) {
    return new CrawlEnvironment(resolver, seedFile, seedUrls, placement);
  }

  /** A cluster node's crawl: its URLs are placed in the partitions it owns, not in a frontier of its own. */
  public CrawlEnvironment withPlacement(CrawlPlacement.Opener opener) {
    return new CrawlEnvironment(dns, seedFile, seedUrls, Optional.of(opener));
  }
}
