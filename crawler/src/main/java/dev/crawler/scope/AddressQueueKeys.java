package dev.crawler.scope;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.net.InetAddresses;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
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
 * {@link #REMEMBERED} in a bounded map, so a page's links cost one lookup a new host, not one a link;
 * the lookup blocks the worker that found the links, which the fetch would have paid for anyway.
 */
final class AddressQueueKeys implements QueueKeys {
  static final int REMEMBERED_HOSTS = 100_000;
  static final Duration REMEMBERED = Duration.ofMinutes(30);

  private static final Logger log = LoggerFactory.getLogger(AddressQueueKeys.class);

  private final Dns resolver;
  /** By host name: its address as a key, or empty if it did not resolve. */
  private final Cache<String, Optional<String>> addressByHost =
      CacheBuilder.newBuilder().maximumSize(REMEMBERED_HOSTS).expireAfterWrite(REMEMBERED).build();

  AddressQueueKeys(Dns resolver) {
    this.resolver = resolver;
  }

  @Override
  public String of(String normalizedUrl) {
    UrlParts parts = QueueBy.parts(normalizedUrl);
    String literal = unbracketed(parts.host());
    if (parts.isIpLiteral() && InetAddresses.isInetAddress(literal)) {
      // The same spelling a resolved address gets, so http://[::1]/ and a name for ::1 share a queue.
      return keyOf(InetAddresses.forString(literal));
    }
    Optional<String> address;
    try {
      address = addressByHost.get(parts.host(), () -> resolve(parts.host()));
    } catch (ExecutionException e) {
      throw new IllegalStateException("resolving " + parts.host() + " failed", e.getCause());   // resolve catches what a Dns throws
    }
    return address.orElseGet(parts::hostKey);
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
    return Optional.ofNullable(lowest).map(AddressQueueKeys::keyOf);
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
  private static String keyOf(InetAddress address) {
    return InetAddresses.toAddrString(address);
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }
}
