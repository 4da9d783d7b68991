package dev.crawler.queue;

import dev.crawler.url.CrawlUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;

/** {@code politeness.queue-by: ip}: the keys, with a resolver that answers from a table and counts its lookups. */
class AddressQueueKeysTest {
  private static CrawlUrl url(String url) {
    return CrawlUrl.parse(url);
  }

  private static List<CrawlUrl> urls(String... urls) {
    return java.util.Arrays.stream(urls).map(CrawlUrl::parse).toList();
  }

  /** Answers from a table, in the order given; any other name is unknown. Counts what it is asked. */
  static final class TableDns implements Dns {
    final Map<String, List<InetAddress>> answers = new HashMap<>();
    final List<String> asked = Collections.synchronizedList(new ArrayList<>());

    TableDns with(String host, String... addresses) throws UnknownHostException {
      List<InetAddress> list = new ArrayList<>();
      for (String a : addresses) {
        list.add(InetAddress.getByName(a));   // literals only: no lookup
      }
      answers.put(host, list);
      return this;
    }

    @Override
    public List<InetAddress> lookup(String hostname) throws UnknownHostException {
      asked.add(hostname);
      List<InetAddress> answer = answers.get(hostname);
      if (answer == null) {
        throw new UnknownHostException(hostname + ": no such host in the table");
      }
      return answer;
    }
  }

  /** The record a crawl keeps on disk ({@link DiskQueueKeyRecord}), in memory; counts its writes. */
  static class MemoryRecord implements QueueKeyRecord {
    final Map<String, String> keys = new ConcurrentHashMap<>();
    final AtomicInteger writes = new AtomicInteger();

    @Override
    public String get(String host) {
      return keys.get(host);
    }

    @Override
    public void put(String host, String key) {
      writes.incrementAndGet();
      keys.put(host, key);
    }

    @Override
    public void close() {
    }
  }

  @Test
  void hostsOnOneAddressShareAKeyAndHostsOnTwoDoNot() throws Exception {
    TableDns dns = new TableDns().with("a.example.com", "192.0.2.7").with("b.example.org", "192.0.2.7")
        .with("c.example.net", "192.0.2.8");
    QueueKeys keys = QueueBy.IP.keys(dns, new MemoryRecord());

    assertThat(keys.of(url("https://a.example.com/x"))).isEqualTo("192.0.2.7");
    assertThat(keys.of(url("http://b.example.org:8080/y"))).as("whatever the port").isEqualTo("192.0.2.7");
    assertThat(keys.of(url("https://c.example.net/"))).isEqualTo("192.0.2.8");
  }

  @Test
  void aRotatingAnswerStillGivesOneKeyTheLowestAddressWithIpv4First() throws Exception {
    TableDns one = new TableDns().with("www.example.com", "2001:db8::1", "192.0.2.20", "192.0.2.3");
    TableDns other = new TableDns().with("www.example.com", "192.0.2.3", "2001:db8::1", "192.0.2.20");

    assertThat(QueueBy.IP.keys(one, new MemoryRecord()).of(url("https://www.example.com/"))).isEqualTo("192.0.2.3");
    assertThat(QueueBy.IP.keys(other, new MemoryRecord()).of(url("https://www.example.com/"))).isEqualTo("192.0.2.3");
    TableDns v6only = new TableDns().with("six.example.com", "2001:db8::20", "2001:db8:0:0:0:0:0:3");
    assertThat(QueueBy.IP.keys(v6only, new MemoryRecord()).of(url("https://six.example.com/"))).isEqualTo("2001:db8::3");
  }

  @Test
  void anAddressInTheUrlIsItsOwnKeySpelledAsAResolvedOneIs() throws Exception {
    TableDns dns = new TableDns().with("six.example.com", "2001:db8::1").with("four.example.com", "192.0.2.9");
    QueueKeys keys = QueueBy.IP.keys(dns, new MemoryRecord());

    assertThat(keys.of(url("http://[2001:db8:0::1]:8443/a"))).isEqualTo("2001:db8::1")
        .isEqualTo(keys.of(url("https://six.example.com/")));
    assertThat(keys.of(url("http://192.0.2.9/"))).isEqualTo(keys.of(url("https://four.example.com/")));
    assertThat(dns.asked).as("a literal address is not looked up").containsExactly("six.example.com", "four.example.com");
  }

  @Test
  void aHostThatDoesNotResolveQueuesUnderItsNameAndPort() throws Exception {
    TableDns dns = new TableDns();
    QueueKeys keys = QueueBy.IP.keys(dns, new MemoryRecord());

    assertThat(keys.of(url("https://gone.example.com/"))).isEqualTo("gone.example.com");
    assertThat(keys.of(url("https://gone.example.com:8443/"))).isEqualTo("gone.example.com:8443");
    assertThat(dns.asked).as("the failure is remembered too").containsExactly("gone.example.com");
  }

  @Test
  void anAnswerIsRememberedSoAPageOfLinksCostsOneLookupAHost() throws Exception {
    TableDns dns = new TableDns().with("www.example.com", "192.0.2.7").with("cdn.example.com", "192.0.2.9");
    QueueKeys keys = QueueBy.IP.keys(dns, new MemoryRecord());
    for (int i = 0; i < 50; i++) {
      keys.of(url("https://www.example.com/page-" + i));
      keys.of(url("https://cdn.example.com/img-" + i));
    }
    assertThat(dns.asked).containsExactly("www.example.com", "cdn.example.com");
  }

  @Test
  void aPagesNewHostsAreLookedUpSideBySide() throws Exception {
    // Each lookup waits until the other has begun: one after the other, the first would time out.
    CountDownLatch bothAsked = new CountDownLatch(2);
    List<String> timedOut = Collections.synchronizedList(new ArrayList<>());
    TableDns table = new TableDns().with("a.example.com", "192.0.2.1").with("b.example.org", "192.0.2.2");
    Dns slow = hostname -> {
      bothAsked.countDown();
      try {
        if (!bothAsked.await(5, TimeUnit.SECONDS)) {
          timedOut.add(hostname);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return table.lookup(hostname);
    };
    QueueKeys keys = QueueBy.IP.keys(slow, new MemoryRecord());

    assertThat(keys.ofAll(urls("https://a.example.com/1", "http://192.0.2.9/", "https://b.example.org/2",
        "https://a.example.com/3"))).containsExactly("192.0.2.1", "192.0.2.9", "192.0.2.2", "192.0.2.1");
    assertThat(timedOut).isEmpty();
    assertThat(table.asked).containsExactlyInAnyOrder("a.example.com", "b.example.org");
  }

  @Test
  void aHostsKeyIsDecidedOnceAndKeptThroughARestartWhateverTheResolverSaysLater() throws Exception {
    MemoryRecord record = new MemoryRecord();
    TableDns before = new TableDns().with("www.example.com", "192.0.2.7");
    assertThat(QueueBy.IP.keys(before, record).of(url("https://www.example.com/a"))).isEqualTo("192.0.2.7");

    // A restart (or a host the memory let go) with the site moved: its URLs join its first queue.
    TableDns after = new TableDns().with("www.example.com", "198.51.100.1");
    assertThat(QueueBy.IP.keys(after, record).of(url("https://www.example.com/b"))).isEqualTo("192.0.2.7");
    assertThat(after.asked).isEmpty();
    assertThat(record.writes).hasValue(1);
  }

  @Test
  void aHostThatDidNotResolveWhenDecidedStaysQueuedByName() throws Exception {
    MemoryRecord record = new MemoryRecord();
    assertThat(QueueBy.IP.keys(new TableDns(), record).ofAll(urls("https://flaky.example.com/a")))
        .containsExactly("flaky.example.com");

    // It resolves now, but its first URL waits in the queue named after it: the rest go there too.
    TableDns recovered = new TableDns().with("flaky.example.com", "192.0.2.7");
    QueueKeys keys = QueueBy.IP.keys(recovered, record);
    assertThat(keys.of(url("https://flaky.example.com/b"))).isEqualTo("flaky.example.com");
    assertThat(keys.of(url("https://flaky.example.com:8443/c"))).as("by name, with its port").isEqualTo("flaky.example.com:8443");
    assertThat(recovered.asked).isEmpty();
  }

  @Test
  void aResolverThatThrowsAnythingQueuesTheHostByNameAndTheIntakeGoesOn() {
    Dns broken = hostname -> {
      throw new SecurityException("lookups of " + hostname + " are not allowed");
    };
    Dns nulls = hostname -> java.util.Arrays.asList((InetAddress) null);
    QueueKeys keys = QueueBy.IP.keys(broken, new MemoryRecord());
    assertThat(keys.ofAll(urls("https://a.example.com/", "https://b.example.com/")))
        .containsExactly("a.example.com", "b.example.com");
    assertThat(QueueBy.IP.keys(nulls, new MemoryRecord()).of(url("https://c.example.com/"))).isEqualTo("c.example.com");
  }

  @Test
  void aRecordThatCannotBeWrittenStopsTheBatchAsAStorageFailure() throws Exception {
    QueueKeyRecord full = new MemoryRecord() {
      @Override
      public void put(String host, String key) {
        throw new UncheckedIOException(new IOException("No space left on device"));
      }
    };
    QueueKeys keys = QueueBy.IP.keys(new TableDns().with("www.example.com", "192.0.2.7"), full);
    assertThatThrownBy(() -> keys.of(url("https://www.example.com/"))).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("No space left on device");
    assertThatThrownBy(() -> keys.ofAll(urls("https://www.example.com/", "https://www.example.org/")))
        .isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void anEmptyAnswerQueuesByNameAndAUrlWithoutAHostIsRefused() throws Exception {
    TableDns dns = new TableDns();
    dns.answers.put("empty.example.com", List.of());
    QueueKeys keys = QueueBy.IP.keys(dns, new MemoryRecord());

    assertThat(keys.of(url("https://empty.example.com/"))).isEqualTo("empty.example.com");
    assertThatThrownBy(() -> keys.of(url("mailto:a@example.com"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mailto:a@example.com");
  }

  @Test
  void byHostAndByDomainNeverAskTheResolver() throws Exception {
    TableDns dns = new TableDns();
    assertThat(QueueBy.HOST.keys(dns, null).of(url("https://www.example.com:8443/"))).isEqualTo("www.example.com:8443");
    assertThat(QueueBy.DOMAIN.keys(dns, null).of(url("https://www.example.com:8443/"))).isEqualTo("example.com");
    assertThat(dns.asked).isEmpty();
    assertThatThrownBy(() -> QueueBy.IP.of(url("https://www.example.com/"))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("keys(resolver, record)");
  }
}
