package dev.crawler.queue;

import dev.crawler.url.CrawlUrl;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.net.InetAddresses;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Dns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue keys of {@code politeness.queue-by: ip}: the address a URL's host resolves to, so that the
 * hosts one server answers for (a shared host's thousands of sites) share its delay and connection
 * limit, as Nutch's {@code fetcher.queue.mode=byIP} does.
 *
 * <p>A host's key is decided once, at its first URL, and kept for the life of the crawl in a
 * {@link QueueKeyRecord} on disk, before the URL is queued: a key that changed later (a DNS
 * answer that moved, a lookup that failed once, a resume) would put the host's URLs in two
 * queues, each with its own delay and connection. So a host that moves stays in its old
 * address's queue, and a host that did not resolve when it was decided (a failure, an empty or
 * unexpected answer, a resolver that throws) stays queued under its host key, as with
 * {@code queue-by: host}; its fetch then records the DNS failure. Of several addresses the
 * lowest is taken (IPv4 first), not the first: a DNS that rotates its answers would otherwise
 * decide by the order of the moment.
 *
 * <p>The worker that found the links waits for their new hosts' lookups, which run side by side
 * on {@link #LOOKUPS_AT_ONCE} threads shared by the crawl ({@link #ofAll}), each as long as the
 * resolver takes (its own timeouts bound it, as they bound a fetch's). The decided keys of
 * {@link #REMEMBERED_HOSTS} hosts are kept in memory too, so a page's links to known hosts read
 * nothing.
 */
final class AddressQueueKeys implements QueueKeys {
  static final int REMEMBERED_HOSTS = 100_000;
  static final int LOOKUPS_AT_ONCE = 16;
  /** Recorded for a host queued under its host key. */
  static final String BY_NAME = "";

  private static final Logger log = LoggerFactory.getLogger(AddressQueueKeys.class);

  private final Dns resolver;
  private final QueueKeyRecord record;
  /** By host name: its address as a key, or {@link #BY_NAME}. */
  private final Cache<String, String> keyByHost = CacheBuilder.newBuilder().maximumSize(REMEMBERED_HOSTS).build();
  /** Hosts decided in this run, by address and by name: logged at the close. */
  private final LongAdder byAddress = new LongAdder();
  private final LongAdder byName = new LongAdder();
  private final AtomicBoolean firstByNameLogged = new AtomicBoolean();
  private final ThreadPoolExecutor lookupThreads = new ThreadPoolExecutor(LOOKUPS_AT_ONCE, LOOKUPS_AT_ONCE,
      30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
      new ThreadFactoryBuilder().setNameFormat("address-lookup-%d").setDaemon(true).build());

  /** @param record where each host's key is kept once decided; the caller closes it, after this */
  AddressQueueKeys(Dns resolver, QueueKeyRecord record) {
    this.resolver = resolver;
    this.record = record;
    lookupThreads.allowCoreThreadTimeOut(true);
  }

  @Override
  public String of(CrawlUrl url) {
    return keyOf(url);
  }

  /** As {@link #of} a URL, with the hosts not yet decided looked up side by side. */
  @Override
  public List<String> ofAll(List<CrawlUrl> parts) {
    Set<String> undecided = new LinkedHashSet<>();
    for (CrawlUrl p : parts) {
      if (literal(p) == null && keyByHost.getIfPresent(p.host()) == null) {
        undecided.add(p.host());
      }
    }
    if (undecided.size() > 1) {
      decideTogether(undecided);
    }
    List<String> keys = new ArrayList<>(parts.size());
    for (CrawlUrl p : parts) {
      keys.add(keyOf(p));
    }
    return keys;
  }

  private String keyOf(CrawlUrl parts) {
    InetAddress literal = literal(parts);
    if (literal != null) {
      // The same spelling a resolved address gets, so http://[::1]/ and a name for ::1 share a queue.
      return spelling(literal);
    }
    String key;
    try {
      key = keyByHost.get(parts.host(), () -> decide(parts.host()));
    } catch (ExecutionException | UncheckedExecutionException e) {
      // decide throws only what the record throws: its storage failure, as it is
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }
    return key.equals(BY_NAME) ? parts.hostKey() : key;
  }

  /** The host's recorded key, or a new one, looked up and recorded. */
  private String decide(String host) {
    String recorded = record.get(host);
    if (recorded != null) {
      return recorded;
    }
    String key = lookUp(host);
    record.put(host, key);
    if (key.equals(BY_NAME)) {
      byName.increment();
    } else {
      byAddress.increment();
    }
    return key;
  }

  /**
   * A page that links to fifty new hosts would otherwise wait for fifty lookups one after the
   * other. What fails here is done again, and reported, by {@link #keyOf}.
   */
  private void decideTogether(Set<String> hosts) {
    List<Future<?>> decisions = new ArrayList<>(hosts.size());
    try {
      for (String host : hosts) {
        decisions.add(lookupThreads.submit(() -> keyByHost.get(host, () -> decide(host))));
      }
    } catch (RejectedExecutionException closed) {
      return;   // a worker cut at a stop, after the close: keyOf decides one host at a time, or fails
    }
    for (Future<?> decision : decisions) {
      try {
        decision.get();
      } catch (ExecutionException e) {
        // keyOf decides the host again and throws what fails
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();   // a stop: keyOf waits for each host, one at a time
        return;
      }
    }
  }

  /** The lowest address the host resolves to, spelled as a key; {@link #BY_NAME} if it does not resolve. */
  private String lookUp(String host) {
    List<InetAddress> addresses;
    try {
      addresses = resolver.lookup(host);
    } catch (Exception e) {
      // Web input never throws (a resolver may throw more than UnknownHostException): the host
      // keeps its own queue, and its fetch records why it does not resolve.
      if (firstByNameLogged.compareAndSet(false, true)) {
        log.info("{} did not resolve when first queued ({}): it keeps a queue of its own, by name, for the whole"
            + " crawl; its fetches record why. Further such hosts are counted at the end.", host, e.toString());
      } else {
        log.debug("{} did not resolve ({}); its URLs queue under its name", host, e.toString());
      }
      return BY_NAME;
    }
    InetAddress lowest = null;
    for (InetAddress a : addresses) {
      if (a != null && (lowest == null || before(a, lowest))) {
        lowest = a;
      }
    }
    return lowest == null ? BY_NAME : spelling(lowest);
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

  /** The URL's host if it is an IP address, else null. */
  private static InetAddress literal(CrawlUrl parts) {
    if (!parts.isIpLiteral()) {
      return null;
    }
    String host = parts.host();
    String text = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    return InetAddresses.isInetAddress(text) ? InetAddresses.forString(text) : null;
  }

  /** "10.1.2.3", "2001:db8::1": IPv6 in its shortest form, without brackets. */
  private static String spelling(InetAddress address) {
    return InetAddresses.toAddrString(address);
  }

  /** Ends the lookup threads (lookups under way finish on their own) and says what was decided. */
  @Override
  public void close() {
    lookupThreads.shutdownNow();
    if (byAddress.sum() + byName.sum() > 0) {
      log.info("queue-by ip: {} new hosts queued by address, {} by name (they did not resolve when first queued)",
          byAddress.sum(), byName.sum());
    }
  }
}
