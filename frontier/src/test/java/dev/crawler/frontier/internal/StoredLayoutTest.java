package dev.crawler.frontier.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins every stored byte layout: a change of field order, width, version or enum order
 * breaks one of the hex strings below, and with it every store already on disk.
 */
class StoredLayoutTest {
  static final HexFormat HEX = HexFormat.of();

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void queueKeyAndValueHaveThePinnedLayout() {
    byte[] key = QueuedUrl.key(3, utf8("a.com"), 0, 5);
    assertThat(HEX.formatHex(key)).isEqualTo("01" + "0003" + "612e636f6d" + "00" + "7f" + "0000000000000005");
    byte[] value = QueuedUrl.value("https://a.com/", 2, 0, null);
    assertThat(HEX.formatHex(value)).isEqualTo("02" + "0002" + "00" + "0000" + "68747470733a2f2f612e636f6d2f");
    byte[] withVia = QueuedUrl.value("https://a.com/", 2, 3, "http://b.io/");
    assertThat(HEX.formatHex(withVia))
        .isEqualTo("02" + "0002" + "03" + "000c" + "687474703a2f2f622e696f2f" + "68747470733a2f2f612e636f6d2f");
  }

  @Test
  void queueValueOfVersionOneStillDecodesWithNoViaAndNoHops() {
    // As the first frontier wrote it: [1][depth u16][url UTF-8]. Stores of running crawls hold these.
    byte[] v1 = HEX.parseHex("01" + "0002" + "68747470733a2f2f612e636f6d2f");
    QueuedUrl url = QueuedUrl.decode(QueuedUrl.key(3, utf8("a.com"), 0, 5), v1);
    assertThat(url.url()).isEqualTo("https://a.com/");
    assertThat(url.depth()).isEqualTo(2);
    assertThat(url.redirectHops()).isZero();
    assertThat(url.via()).isNull();
    assertThat(url.priority()).isZero();
    assertThat(url.seq()).isEqualTo(5);
  }

  @Test
  void emptyViaIsStoredAsNoVia() {
    assertThat(QueuedUrl.value("https://a.com/", 0, 0, "")).isEqualTo(QueuedUrl.value("https://a.com/", 0, 0, null));
    assertThat(QueuedUrl.decode(QueuedUrl.key(0, utf8("a.com"), 0, 0), QueuedUrl.value("https://a.com/", 0, 0, ""))
        .via()).isNull();
  }

  /** Lengths in UTF-8 bytes around the 2,048-byte cap; é is 2 bytes, 𝄞 (U+1D11E) is 4. */
  @ParameterizedTest
  @CsvSource({
      // prefix ASCII bytes, character repeated, times, expected via bytes kept
      "2048, '', 0, 2048",       // exactly the cap: kept whole
      "2049, '', 0, 2048",       // one byte over: cut to the cap
      "2047, é, 1, 2047",        // é would end at byte 2049: dropped whole, not halved
      "2046, é, 1, 2048",        // é ends exactly at the cap
      "2045, 𝄞, 1, 2045",        // a 4-byte character across the cap: dropped whole
      "0, 𝄞, 600, 2048",         // 512 whole 4-byte characters
      "1, é, 1500, 2047",        // 1 + 1,023 × 2
  })
  void viaLongerThanTheCapIsCutAtACharacterBoundary(int asciiBytes, String ch, int times, int kept) {
    String via = "a".repeat(asciiBytes) + ch.repeat(times);
    QueuedUrl url = QueuedUrl.decode(QueuedUrl.key(0, utf8("a.com"), 0, 0),
        QueuedUrl.value("https://a.com/x", 7, 255, via));
    assertThat(utf8(url.via())).hasSize(kept);
    assertThat(via).startsWith(url.via());
    assertThat(url.url()).isEqualTo("https://a.com/x");
    assertThat(url.depth()).isEqualTo(7);
    assertThat(url.redirectHops()).isEqualTo(255);
  }

  @Test
  void queueEntryRoundTrips() {
    byte[] key = QueuedUrl.key(65_535, utf8("bücher.de"), -128, Long.MAX_VALUE);
    QueuedUrl url = QueuedUrl.decode(key,
        QueuedUrl.value("https://bücher.de/ä?q=1", 65_535, 255, "https://ü.de/ß"));
    assertThat(url.url()).isEqualTo("https://bücher.de/ä?q=1");
    assertThat(url.depth()).isEqualTo(65_535);
    assertThat(url.redirectHops()).isEqualTo(255);
    assertThat(url.via()).isEqualTo("https://ü.de/ß");
    assertThat(url.priority()).isEqualTo(-128);
    assertThat(url.seq()).isEqualTo(Long.MAX_VALUE);
    assertThat(url.partition()).isEqualTo(65_535);
    assertThat(url.hostKey()).isEqualTo("bücher.de");
  }

  @Test
  void oneHostsQueueIsOneKeyRangeOrderedByPriorityThenArrival() {
    byte[] host = utf8("a.com");
    List<byte[]> keys = new ArrayList<>(List.of(
        QueuedUrl.key(0, host, 0, 1), QueuedUrl.key(0, host, 0, 300), QueuedUrl.key(0, host, 9, 500),
        QueuedUrl.key(0, host, -1, 2)));
    keys.sort(Bytes::compare);
    assertThat(keys).extracting(k -> QueuedUrl.decode(k, QueuedUrl.value("u", 0, 0, null)).seq())
        .containsExactly(500L, 1L, 300L, 2L);
    byte[] start = QueuedUrl.hostStart(0, host);
    byte[] end = QueuedUrl.hostEnd(0, host);
    for (byte[] k : keys) {
      assertThat(Bytes.compare(k, start)).isGreaterThanOrEqualTo(0);
      assertThat(Bytes.compare(k, end)).isLessThan(0);
    }
    // Hosts that share a prefix never fall into a.com's range.
    for (String other : List.of("a.co", "a.com.evil", "a.com-x", "a.comm", "b.com")) {
      byte[] k = QueuedUrl.key(0, utf8(other), 127, 0);
      assertThat(Bytes.compare(k, start) < 0 || Bytes.compare(k, end) >= 0).as(other).isTrue();
    }
  }

  @Test
  void hostStateHasThePinnedLayoutAndRoundTrips() {
    HostState state = new HostState(true, 1000, 2500, 4, 7);
    assertThat(HEX.formatHex(HostState.key(1, utf8("a.com")))).isEqualTo("01" + "0001" + "612e636f6d");
    assertThat(HEX.formatHex(state.encode()))
        .isEqualTo("01" + "01" + "00000000000003e8" + "00000000000009c4" + "0004" + "00000007");
    assertThat(HostState.decode(state.encode())).isEqualTo(state);
    assertThat(HostState.decode(HostState.NEW.encode())).isEqualTo(HostState.NEW);
    assertThat(HEX.formatHex(HostState.NEW.encode()))
        .isEqualTo("01" + "00" + "0000000000000000" + "ffffffffffffffff" + "0000" + "00000000");
  }

  @Test
  void scheduleKeyHasThePinnedLayoutAndSortsByTime() {
    byte[] key = ScheduleKey.encode(2, 1000, utf8("a.com"));
    assertThat(HEX.formatHex(key)).isEqualTo("01" + "0002" + "00000000000003e8" + "612e636f6d");
    assertThat(ScheduleKey.partition(key)).isEqualTo(2);
    assertThat(ScheduleKey.nextAllowedMillis(key)).isEqualTo(1000);
    assertThat(ScheduleKey.hostKey(key)).isEqualTo("a.com");
    assertThat(Bytes.compare(ScheduleKey.encode(0, 255, utf8("z")), ScheduleKey.encode(0, 256, utf8("a"))))
        .isNegative();
    assertThat(Bytes.compare(ScheduleKey.encode(0, Long.MAX_VALUE, utf8("z")), ScheduleKey.partitionEnd(0)))
        .isNegative();
    assertThat(Bytes.compare(ScheduleKey.partitionEnd(0), ScheduleKey.partitionStart(1))).isNegative();
    assertThat(HEX.formatHex(ScheduleKey.VALUE)).isEqualTo("01");
  }

  @Test
  void partitionCountersHaveThePinnedLayoutAndRoundTrip() {
    PartitionCounters c = new PartitionCounters(1);
    c.queued = 1;
    c.hosts = 2;
    c.lastSeq = 3;
    c.fetched = 4;
    c.retried = 5;
    c.failed = 6;
    assertThat(HEX.formatHex(c.key())).isEqualTo("010001");
    assertThat(HEX.formatHex(c.encode())).isEqualTo("01" + "0000000000000001" + "0000000000000002"
        + "0000000000000003" + "0000000000000004" + "0000000000000005" + "0000000000000006");
    PartitionCounters back = PartitionCounters.decode(c.key(), c.encode());
    assertThat(List.of(back.partition, back.queued, back.hosts, back.lastSeq, back.fetched, back.retried, back.failed))
        .containsExactly(1, 1L, 2L, 3L, 4L, 5L, 6L);
  }

  @Test
  void storeFormatRecordIsPinned() {
    assertThat(new String(FrontierStore.FORMAT_KEY, StandardCharsets.US_ASCII)).isEqualTo("frontier-format");
    assertThat(FrontierStore.FORMAT_VERSION).isEqualTo(1);
    assertThat(FrontierStore.FORMAT_VERSION_GROUP_DATABASES).isEqualTo(2);
    assertThat(HEX.formatHex(FrontierStore.format(4))).isEqualTo("01" + "00000004");
    // partitions 4, group 1 of 4
    assertThat(HEX.formatHex(FrontierStore.groupFormat(4, 1, 4))).isEqualTo("02" + "00000004" + "0001" + "0004");
  }

  @Test
  void valueOfAnotherVersionIsRefusedNotMisread() {
    byte[] value = new HostState(false, 0, -1, 0, 0).encode();
    value[0] = 2;
    assertThatThrownBy(() -> HostState.decode(value)).hasMessageContaining("host state version (2) is not 1");
    byte[] url = QueuedUrl.value("u", 0, 0, null);
    url[0] = 9;
    assertThatThrownBy(() -> QueuedUrl.decode(QueuedUrl.key(0, utf8("h"), 0, 0), url))
        .hasMessageContaining("queue value version (9) is not 1 or 2");
  }

  /** The partition is in every key: if the hash changed, hosts would be looked up in the wrong range. */
  @ParameterizedTest
  @CsvSource({
      "example.com, 819, 4",
      "a.com, 220, 2",
      "xn--bcher-kva.de, 511, 5",
      "192.0.2.7, 290, 0",
  })
  void partitionOfAHostIsPinned(String host, int of1024, int of7) {
    assertThat(HostKeys.partition(HostKeys.utf8(host), 1024)).isEqualTo(of1024);
    assertThat(HostKeys.partition(HostKeys.utf8(host), 7)).isEqualTo(of7);
    assertThat(HostKeys.partition(HostKeys.utf8(host), 1)).isZero();
  }

  @Test
  void fetchOutcomeKindsKeepTheirOrder() {
    // Not stored today, but counters are laid out in this order: keep them in step.
    assertThat(dev.crawler.frontier.FetchOutcome.Kind.values()).extracting(Enum::name)
        .containsExactly("FETCHED", "RETRY_AFTER", "FAILED", "DEFERRED", "SKIPPED");
  }
}
