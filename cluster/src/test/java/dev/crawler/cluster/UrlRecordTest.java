package dev.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class UrlRecordTest {
  static final HexFormat HEX = HexFormat.of();

  static AdmittedUrl admitted(String url, String key, int depth, String via, int hops) {
    return new AdmittedUrl(CrawlUrl.of(url), key, depth, via, hops);
  }

  @Test
  void aRecordHasThePinnedLayout() {
    byte[] value = UrlRecord.encode(admitted("http://a.io/x", "a.io", 300, "http://b.io/", 2));
    assertThat(HEX.formatHex(value)).isEqualTo("01" + "ac02" + "02" + "0d" + "687474703a2f2f612e696f2f78"
        + "0c" + "687474703a2f2f622e696f2f");
    assertThat(HEX.formatHex(UrlRecord.encode(admitted("http://a.io/", "a.io", 0, null, 0))))
        .isEqualTo("01" + "00" + "00" + "0c" + "687474703a2f2f612e696f2f" + "00");
  }

  @Test
  void aRecordReadsBackAsTheUrlItWasWithItsKey() {
    AdmittedUrl link = admitted("https://example.com/a/b?q=1", "example.com", 7, "https://example.com/", 0);
    AdmittedUrl seed = admitted("https://example.com/", "example.com", 0, null, 0);
    AdmittedUrl redirected = admitted("https://www.example.com/ü", "example.com", 3, "https://example.com/x", 4);
    for (AdmittedUrl url : new AdmittedUrl[] {link, seed, redirected}) {
      AdmittedUrl back = UrlRecord.decode(url.queueKey(), UrlRecord.encode(url));
      assertThat(back.url().url()).isEqualTo(url.url().url());
      assertThat(back).usingRecursiveComparison().ignoringFields("url").isEqualTo(url);
    }
  }

  @Test
  void aLinkOfSixtyCharactersFoundOnAPageOfSixtyTakes125Bytes() {
    String url = "https://docs.example.com/guide/chapter-07/section-3/page.htm";
    String via = "https://docs.example.com/guide/chapter-07/section-2/page.htm";
    assertThat(url).hasSize(60);
    assertThat(via).hasSize(60);
    assertThat(UrlRecord.encode(admitted(url, "docs.example.com", 4, via, 0))).hasSize(125);
  }

  @Test
  void anotherVersionOrACutRecordIsRefusedNotMisread() {
    byte[] value = UrlRecord.encode(admitted("http://a.io/x", "a.io", 1, "http://b.io/", 0));
    byte[] other = value.clone();
    other[0] = 2;
    assertThatThrownBy(() -> UrlRecord.decode("a.io", other)).hasMessageContaining("URL record version (2) is not 1");
    assertThatThrownBy(() -> UrlRecord.decode("a.io", Arrays.copyOf(value, value.length - 3)))
        .hasMessageContaining("cut short");
    assertThatThrownBy(() -> UrlRecord.decode("a.io", Arrays.copyOf(value, value.length + 1)))
        .hasMessageContaining("1 bytes past its end");
    assertThatThrownBy(() -> UrlRecord.decode("a.io", new byte[0])).hasMessageContaining("empty");
  }

  @Test
  void varintsOfEveryWidthRoundTrip() {
    for (int v : new int[] {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE}) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(UrlRecord.varintSize(v));
      UrlRecord.putVarint(v, b);
      assertThat(b.hasRemaining()).isFalse();
      b.flip();
      assertThat(UrlRecord.getVarint(b)).isEqualTo(v);
    }
  }
}
