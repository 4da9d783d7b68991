package dev.crawler.queue;

import dev.crawler.url.CrawlUrl;
import static com.google.common.base.Preconditions.checkNotNull;

import okhttp3.Dns;

/**
 * What shares one queue of the frontier, and with it one politeness delay and one connection
 * limit ({@code politeness.queue-by}). By host is what a site expects of one client. By domain
 * keeps a site spread over many host names (shop.example.com, img1.example.com, ...) from
 * getting a fetcher per name, as Nutch's {@code fetcher.queue.mode=byDomain} and StormCrawler's
 * {@code partition.url.mode=byDomain} do; since the frontier partitions by this key, a cluster
 * then also keeps a domain on one node. By IP goes further: every host one server answers for.
 */
public enum QueueBy {
  /** The host, plus ":port" when the port is not the scheme's default ("example.com:8080"). */
  HOST {
    @Override
    String keyOf(CrawlUrl parts) {
      return parts.hostKey();
    }
  },
  /**
   * The registered domain ("example.co.uk" for "www.example.co.uk:8080"), whatever the port; an
   * IP address, or a host with no public suffix, is its own domain.
   */
  DOMAIN {
    @Override
    String keyOf(CrawlUrl parts) {
      return parts.registeredDomain();
    }
  },
  /**
   * The address the host resolves to ("93.184.215.14", "2001:db8::1"), whatever the port: see
   * {@link AddressQueueKeys}. It needs a resolver and a record of the keys decided, so only
   * {@link #keys} gives it.
   */
  IP {
    @Override
    String keyOf(CrawlUrl parts) {
      throw new IllegalStateException("queue-by ip resolves host names: take its keys from keys(resolver, record)");
    }

    @Override
    public QueueKeys keys(Dns resolver, QueueKeyRecord record) {
      return new AddressQueueKeys(checkNotNull(resolver, "resolver"), checkNotNull(record, "record"));
    }
  };

  /**
   * The queue keys of this setting. Only {@link #IP} uses {@code resolver} and {@code record}
   * (where each host's key is kept once decided), and then both must be given.
   */
  public QueueKeys keys(Dns resolver, QueueKeyRecord record) {
    return this::of;
  }

  /**
   * The URL's queue key.
   *
   * @throws IllegalArgumentException if the URL is not an http(s) URL with a host; only URLs
   *     {@link dev.crawler.scope.Scope#check} put in scope reach the frontier
   * @throws IllegalStateException for {@link #IP}, whose keys need a resolver ({@link #keys})
   */
  public String of(String normalizedUrl) {
    return keyOf(CrawlUrl.parse(normalizedUrl));
  }

  /** The URL's queue key; as {@link #of(String)}. */
  public String of(CrawlUrl url) {
    return keyOf(url);
  }

  abstract String keyOf(CrawlUrl parts);
}
