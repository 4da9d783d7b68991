package dev.crawler.crawl;

import com.google.common.net.InetAddresses;
import dev.crawler.config.CrawlConfig;
import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.fetch.PrivateAddresses;
import dev.crawler.url.FetchableUrls;
import dev.crawler.url.CrawlUrl;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.Dns;

/**
 * Seeds the fetcher would refuse before a request: without {@code scope.allow-private-addresses},
 * a host that resolves only to loopback, private or link-local addresses. Found at start, so that
 * a crawl of a local server without that key says so at once instead of retrying its robots.txt.
 *
 * <p>Resolves one host at a time and stops at the first seed that is not refused: a seed list of
 * the public web costs one lookup. A host that does not resolve is not refused here (the name
 * may work later, and the crawl reports it as a DNS failure).
 */
public final class RefusedSeeds {
  private RefusedSeeds() {}

  /**
   * The seeds' hosts with the private address each resolves to, if every seed's host resolves
   * only to private addresses; empty as soon as one does not.
   */
  public static Map<String, String> ifAllRefused(List<String> seeds, Dns dns) {
    Map<String, String> refused = new LinkedHashMap<>();
    for (String seed : seeds) {
      CrawlUrl url = CrawlUrl.of(seed);
      if (url == null) {
        return Map.of();
      }
      String host = url.host();
      if (refused.containsKey(host)) {
        continue;
      }
      String privateAddress = onlyPrivateAddress(host, dns);
      if (privateAddress == null) {
        return Map.of();
      }
      refused.put(host, privateAddress);
    }
    return refused;
  }

  /** The message for a crawl whose every seed is refused: which hosts, why, and the key that allows them. */
  public static String message(Map<String, String> refused) {
    List<String> hosts = new ArrayList<>();
    refused.forEach((host, address) -> hosts.add(host.equals(address) ? host : host + " (" + address + ")"));
    return "every seed is refused: " + String.join(", ", hosts.subList(0, Math.min(5, hosts.size())))
        + (hosts.size() > 5 ? " and " + (hosts.size() - 5) + " more hosts" : "")
        + (hosts.size() == 1 ? " is a private address" : " are private addresses")
        + " (loopback, a LAN or link-local), and only public ones are crawled. To crawl a server of your own,"
        + " set scope.allow-private-addresses: true";
  }

  /** Hosts a seed-file check resolves at most: enough for a hand-written list, bounded for a huge one. */
  static final int HOSTS_CHECKED = 100;

  /**
   * What a crawl with this configuration would refuse of its seed file, one line a seed: a line
   * that is no crawlable URL, and (without {@code scope.allow-private-addresses}) a host that
   * resolves only to private addresses, among the first {@value #HOSTS_CHECKED} hosts. Empty if
   * the file is missing (the configuration check says so) or every seed is fine.
   */
  public static List<String> inSeedFile(CrawlConfig config, Dns dns) throws IOException {
    Path file = config.crawl().seeds();
    if (file == null || !Files.isRegularFile(file)) {
      return List.of();
    }
    UrlNormalizer normalizer = new UrlNormalizer(CrawlSetup.normalizer(config));
    List<String> warnings = new ArrayList<>();
    Map<String, Optional<String>> hosts = new LinkedHashMap<>();
    for (SeedFile.Seed seed : SeedFile.read(file)) {
      if (!(FetchableUrls.confirm(normalizer.normalize(seed.url())) instanceof UrlNormalization.Accepted accepted)) {
        warnings.add("seed on line " + seed.line() + " of " + file + " is not a crawlable http(s) URL: " + seed.url());
        continue;
      }
      CrawlUrl url = CrawlUrl.of(accepted.url());
      if (config.scope().allowPrivateAddresses() || url == null
          || (!hosts.containsKey(url.host()) && hosts.size() >= HOSTS_CHECKED)) {
        continue;
      }
      Optional<String> address = hosts.computeIfAbsent(url.host(),
          host -> Optional.ofNullable(onlyPrivateAddress(host, dns)));
      if (address.isPresent()) {
        warnings.add("seed on line " + seed.line() + " of " + file + " would be refused: " + url.host()
            + (address.get().equals(url.host()) ? " is" : " is " + address.get() + ",") + " a private address"
            + " (set scope.allow-private-addresses: true to crawl it)");
      }
    }
    return warnings;
  }

  /** An address of {@code host} if all of them are private; null if one is public or the name does not resolve. */
  private static String onlyPrivateAddress(String host, Dns dns) {
    List<InetAddress> addresses;
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    try {
      // An IP literal is not looked up, as OkHttp does not look it up either.
      addresses = InetAddresses.isInetAddress(bare) ? List.of(InetAddresses.forString(bare)) : dns.lookup(bare);
    } catch (UnknownHostException | RuntimeException e) {
      return null;
    }
    if (addresses.isEmpty() || !addresses.stream().allMatch(PrivateAddresses::isPrivate)) {
      return null;
    }
    return addresses.get(0).getHostAddress();
  }
}
