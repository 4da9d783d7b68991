package dev.crawler.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UrlFingerprintTest {

  @Test
  void fingerprintIsGuavasMurmur3OfTheUnencodedChars() {
    SplittableRandom random = new SplittableRandom(42);
    for (int length = 0; length < 70; length++) {
      for (int trial = 0; trial < 20; trial++) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
          // Mostly ASCII, sometimes any BMP char, as URLs before and after escaping.
          s.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000) : (char) (32 + random.nextInt(95)));
        }
        HashCode guava = Hashing.murmur3_128().hashUnencodedChars(s);
        ByteBuffer bytes = ByteBuffer.wrap(guava.asBytes()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(UrlFingerprint.of(s)).as("\"%s\"", s)
            .isEqualTo(new UrlFingerprint(bytes.getLong(0), bytes.getLong(8)));
      }
    }
  }

  @Test
  void bytesRoundTripHighHalfFirstBigEndian() {
    UrlFingerprint fp = new UrlFingerprint(0x0102030405060708L, 0x1112131415161718L);
    assertThat(fp.toBytes()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18);
    assertThat(UrlFingerprint.fromBytes(fp.toBytes())).isEqualTo(fp);
    UrlFingerprint negative = UrlFingerprint.of("https://example.org/");
    assertThat(UrlFingerprint.fromBytes(negative.toBytes())).isEqualTo(negative);
  }
}
