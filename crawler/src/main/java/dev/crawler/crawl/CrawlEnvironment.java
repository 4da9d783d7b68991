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
 */
public record CrawlEnvironment(Dns dns, Optional<Path> seedFile, List<String> seedUrls) {
  public static CrawlEnvironment standard() {
    return new CrawlEnvironment(Dns.SYSTEM, Optional.empty(), List.of());
  }

  public CrawlEnvironment withSeedFile(Path file) {
    return new CrawlEnvironment(dns, Optional.of(file), seedUrls);
  }

  public CrawlEnvironment withSeeds(List<String> urls) {
    return new CrawlEnvironment(dns, seedFile, List.copyOf(urls));
  }

  public CrawlEnvironment withDns(Dns resolver) {
    return new CrawlEnvironment(resolver, seedFile, seedUrls);
  }
}
