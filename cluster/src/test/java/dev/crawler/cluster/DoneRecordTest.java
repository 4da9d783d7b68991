package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.frontier.FetchOutcome;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DoneRecordTest {
  static final HexFormat HEX = HexFormat.of();
  static final UrlFingerprint FP = new UrlFingerprint(0x0102030405060708L, 0x1112131415161718L);

  @Test
  void aRecordHasThePinnedLayout() {
    assertThat(HEX.formatHex(new DoneRecord("a.io", FP, FetchOutcome.Kind.FETCHED).value()))
        .isEqualTo("01" + "01" + "0102030405060708" + "1112131415161718");
  }

  @Test
  void eachOutcomeHasItsPinnedCodeWhateverTheEnumsOrder() {
    assertThat(new DoneRecord("a.io", FP, FetchOutcome.Kind.FETCHED).value()[1]).isEqualTo((byte) 1);
    assertThat(new DoneRecord("a.io", FP, FetchOutcome.Kind.FAILED).value()[1]).isEqualTo((byte) 2);
    assertThat(new DoneRecord("a.io", FP, FetchOutcome.Kind.SKIPPED).value()[1]).isEqualTo((byte) 3);
  }

  @Test
  void aRecordReadsBackAsItWasWithItsKey() {
    for (FetchOutcome.Kind kind : new FetchOutcome.Kind[] {FetchOutcome.Kind.FETCHED, FetchOutcome.Kind.FAILED,
        FetchOutcome.Kind.SKIPPED}) {
      DoneRecord done = DoneRecord.of("example.com", "https://example.com/a?b=1", kind);
      assertThat(DoneRecord.decode("example.com", done.value())).isEqualTo(done);
    }
    assertThat(DoneRecord.of("e.com", "https://e.com/x", FetchOutcome.Kind.FETCHED).fingerprint())
        .isEqualTo(UrlFingerprint.of("https://e.com/x"));
  }

  @Test
  void anOutcomeThatLeavesTheUrlQueuedIsNotDone() {
    assertThatThrownBy(() -> new DoneRecord("a.io", FP, FetchOutcome.Kind.RETRY_AFTER))
        .hasMessageContaining("outcome RETRY_AFTER leaves the URL queued: it is not done");
    assertThatThrownBy(() -> new DoneRecord("a.io", FP, FetchOutcome.Kind.DEFERRED))
        .hasMessageContaining("outcome DEFERRED leaves the URL queued");
  }

  @Test
  void anotherVersionACutRecordOrAnUnknownOutcomeIsRefusedNotMisread() {
    byte[] value = new DoneRecord("a.io", FP, FetchOutcome.Kind.FAILED).value();
    byte[] other = value.clone();
    other[0] = 2;
    assertThatThrownBy(() -> DoneRecord.decode("a.io", other)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("done record version (2) is not 1");
    assertThatThrownBy(() -> DoneRecord.decode("a.io", Arrays.copyOf(value, 17)))
        .hasMessageContaining("done record of a.io has 17 bytes, not 18");
    assertThatThrownBy(() -> DoneRecord.decode("a.io", new byte[0])).hasMessageContaining("empty");
    byte[] unknown = value.clone();
    unknown[1] = 9;
    assertThatThrownBy(() -> DoneRecord.decode("a.io", unknown))
        .hasMessageContaining("done record outcome (9) is not 1, 2 or 3");
  }
}
