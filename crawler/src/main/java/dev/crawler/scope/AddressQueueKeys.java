package dev.crawler.scope;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.net.InetAddresses;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import okhttp3.Dns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue keys of {@code politeness.queue-by: ip}: the address a URL's host resolves to, so that the
 * hosts one server answers for (a shared host's thousands of sites) share its delay and connection
 * limit, as Nutch's {@code fetcher.queue.mode=byIP} does.
 *
 * <p>The key is decided once, when the URL is queued: a host that moves later keeps its queued
 * URLs in its old address's queue. Of several addresses the lowest is taken (IPv4 first), not the
 * first: a DNS that rotates its answers would otherwise spread one site over several queues. A host
 * that does not resolve is queued under its host key, as with {@code queue-by: host}; its fetch then
 * fails and is recorded as any DNS failure is. Answers, and failures, are remembered for
 * {@link #REMEMBERED} in a bounded map, so a page's links cost one lookup a new host, not one a link.
 * The worker that found the links waits for their hosts' lookups, made side by side
 * ({@link #ofAll}), up to {@link #LOOKUPS_AT_ONCE} at once for the whole crawl.
 */
final class AddressQueueKeys implements QueueKeys {
  static final int REMEMBERED_HOSTS = 100_000;
  static final Duration REMEMBERED = Duration.ofMinutes(30);
  static final int LOOKUPS_AT_ONCE = 16;

  private static final Logger log = LoggerFactory.getLogger(AddressQueueKeys.class);

  private final Dns resolver;
  /** By host name: its address as a key, or empty if it did not resolve. */
  private final Cache<String, Optional<String>> addressByHost =
      CacheBuilder.newBuilder().maximumSize(REMEMBERED_HOSTS).expireAfterWrite(REMEMBERED).build();

  /**
   * Lookups under way at once for the whole crawl, beside the fetchers' own. Idle threads end
   * after a while, so nothing needs closing.
   */
  private final ThreadPoolExecutor lookupThreads = new ThreadPoolExecutor(LOOKUPS_AT_ONCE, LOOKUPS_AT_ONCE,
      30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
      new ThreadFactoryBuilder().setNameFormat("address-lookup-%d").setDaemon(true).build());

  AddressQueueKeys(Dns resolver) {
    this.resolver = resolver;
    lookupThreads.allowCoreThreadTimeOut(true);
  }

  @Override
  public String of(String normalizedUrl) {
    return keyOf(QueueBy.parts(normalizedUrl));
  }

  /** As {@link #of} a URL, with the hosts not yet known looked up side by side. */
  @Override
  public List<String> ofAll(List<String> normalizedUrls) {
    List<UrlParts> parts = new ArrayList<>(normalizedUrls.size());
    Set<String> unknown = new LinkedHashSet<>();
    for (String url : normalizedUrls) {
      UrlParts p = QueueBy.parts(url);
      parts.add(p);
      if (literal(p) == null && addressByHost.getIfPresent(p.host()) == null) {
        unknown.add(p.host());
      }
    }
    if (unknown.size() > 1) {
      lookUpTogether(unknown);
    }
    List<String> keys = new ArrayList<>(parts.size());
    for (UrlParts p : parts) {
      keys.add(keyOf(p));
    }
    return keys;
  }

  private String keyOf(UrlParts parts) {
    InetAddress literal = literal(parts);
    if (literal != null) {
      // The same spelling a resolved address gets, so http://[::1]/ and a name for ::1 share a queue.
      return spelling(literal);
    }
    Optional<String> address;
    try {
      address = addressByHost.get(parts.host(), () -> resolve(parts.host()));
    } catch (ExecutionException e) {
      throw new IllegalStateException("resolving " + parts.host() + " failed", e.getCause());   // resolve catches what a Dns throws
    }
    return address.orElseGet(parts::hostKey);
  }

  /**
   * A page that links to fifty new hosts would otherwise wait for fifty lookups one after the
   * other. Each lookup is remembered as it ends; one that failed to run is made again by
   * {@link #keyOf}.
   */
  private void lookUpTogether(Set<String> hosts) {
    List<Future<?>> lookups = new ArrayList<>(hosts.size());
    for (String host : hosts) {
      lookups.add(lookupThreads.submit(() -> addressByHost.get(host, () -> resolve(host))));
    }
    for (Future<?> lookup : lookups) {
      try {
        lookup.get();
      } catch (ExecutionException e) {
        // keyOf looks the host up again and reports what fails
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();   // a stop: keyOf finishes the batch one host at a time
        return;
      }
    }
  }

  /** The URL's host if it is an IP address, else null. */
  private static InetAddress literal(UrlParts parts) {
    if (!parts.isIpLiteral()) {
      return null;
    }
    String text = unbracketed(parts.host());
    return InetAddresses.isInetAddress(text) ? InetAddresses.forString(text) : null;
  }

  private Optional<String> resolve(String host) {
    List<InetAddress> addresses;
    try {
      addresses = resolver.lookup(host);
    } catch (UnknownHostException | IllegalArgumentException e) {
      log.debug("{} did not resolve ({}); its URLs queue under its name", host, e.getMessage());
      return Optional.empty();
    }
    InetAddress lowest = null;
    for (InetAddress a : addresses) {
      if (lowest == null || before(a, lowest)) {
        lowest = a;
      }
    }
    return Optional.ofNullable(lowest).map(AddressQueueKeys::spelling);
  }

  /** IPv4 first, then by the address's bytes, unsigned. */
  private static boolean before(InetAddress a, InetAddress b) {
    boolean a4 = a instanceof Inet4Address;
    boolean b4 = b instanceof Inet4Address;
    if (a4 != b4) {
      return a4;
    }
    return Arrays.compareUnsigned(a.getAddress(), b.getAddress()) < 0;
  }

  /** "10.1.2.3", "2001:db8::1": IPv6 in its shortest form, without brackets. */
  private static String spelling(InetAddress address) {
    return InetAddresses.toAddrString(address);
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }
}
