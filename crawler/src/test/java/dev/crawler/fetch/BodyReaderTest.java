package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import okio.Buffer;
import okio.Okio;
import okio.Source;
import okio.Timeout;
import org.junit.jupiter.api.Test;

/** gzip bodies as the network hands them over: in pieces, one read at a time. */
class BodyReaderTest {
  private static byte[] gzip(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
      gzip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** One part a read, then {@code end} thrown, or the end of the body if null. */
  private static Source network(IOException end, byte[]... parts) {
    return new Source() {
      private int next;

      @Override
      public long read(Buffer sink, long byteCount) throws IOException {
        if (next == parts.length) {
          if (end != null) {
            throw end;
          }
          return -1;
        }
        sink.write(parts[next]);
        return parts[next++].length;
      }

      @Override
      public Timeout timeout() {
        return Timeout.NONE;
      }

      @Override
      public void close() {}
    };
  }

  private static String text(BodyReader.Body body) {
    return new String(body.bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void aSecondMemberArrivingInALaterReadIsPartOfTheBody() {
    // The JDK's GZIPInputStream before 23 looked for it only in bytes already buffered, and
    // reported "hello " as the whole body.
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, gzip("hello "), gzip("world"))), true, 1000);

    assertThat(text(body)).isEqualTo("hello world");
    assertThat(body.truncated()).isFalse();
    assertThat(body.failure()).isNull();
  }

  @Test
  void aResetAfterTheFirstMemberIsANetworkFailureNotTheEnd() {
    byte[] secondHead = Arrays.copyOf(gzip("world"), 4);
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(new SocketException("Connection reset"), gzip("hello "), secondHead)), true, 1000);

    assertThat(body.failure()).isInstanceOf(SocketException.class);
    assertThat(body.badEncoding()).isFalse();
    assertThat(body.truncated()).isTrue();
    assertThat(text(body)).isEqualTo("hello ");
  }

  @Test
  void aMemberByteByByteIsDecoded() {
    byte[] whole = gzip("one byte a read");
    byte[][] parts = new byte[whole.length][];
    for (int i = 0; i < whole.length; i++) {
      parts[i] = new byte[] {whole[i]};
    }
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, parts)), true, 1000);

    assertThat(text(body)).isEqualTo("one byte a read");
    assertThat(body.failure()).isNull();
  }

  @Test
  void aHeaderWithNameCommentExtraAndHeaderCrcIsSkipped() {
    byte[] plain = gzip("flags");
    ByteArrayOutputStream flagged = new ByteArrayOutputStream();
    flagged.write(plain, 0, 3);
    flagged.write(2 | 4 | 8 | 16);                    // FHCRC, FEXTRA, FNAME, FCOMMENT
    flagged.write(plain, 4, 6);                       // mtime, xfl, os
    flagged.writeBytes(new byte[] {3, 0, 'x', 'y', 'z'});
    flagged.writeBytes("name.html\0".getBytes(StandardCharsets.US_ASCII));
    flagged.writeBytes("a comment\0".getBytes(StandardCharsets.US_ASCII));
    flagged.writeBytes(new byte[] {0x12, 0x34});      // the header CRC: not checked, as browsers do not
    flagged.write(plain, 10, plain.length - 10);

    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, flagged.toByteArray())), true, 1000);

    assertThat(text(body)).isEqualTo("flags");
  }

  @Test
  void aWrongCrcOrCutDataIsBadEncoding() {
    byte[] wrongCrc = gzip("checked");
    wrongCrc[wrongCrc.length - 8] ^= 1;
    byte[] cut = Arrays.copyOf(gzip("cut short ".repeat(50)), 30);

    for (byte[] broken : new byte[][] {wrongCrc, cut, "not gzip".getBytes(StandardCharsets.US_ASCII)}) {
      BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, broken)), true, 1000);
      assertThat(body.failure()).isNotNull();
      assertThat(body.badEncoding()).as(body.failure().getMessage()).isTrue();
    }
  }

  @Test
  void bytesAfterTheLastMemberThatStartNoMemberAreIgnored() {
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(null, gzip("kept"), "\r\n<!-- appended by a proxy -->".getBytes(StandardCharsets.US_ASCII))),
        true, 1000);

    assertThat(text(body)).isEqualTo("kept");
    assertThat(body.failure()).isNull();
  }

  @Test
  void junkAfterTheLastMemberThatStartsLikeAMemberIsIgnoredToo() {
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(null, gzip("kept"), new byte[] {0x1f, (byte) 0x8b, 0, 0, 0})), true, 1000);

    assertThat(text(body)).isEqualTo("kept");
    assertThat(body.failure()).isNull();
  }

  @Test
  void aSecondMemberCutInItsHeaderIsDataLostNotTheEnd() {
    byte[] cutHeader = {0x1f, (byte) 0x8b, 8};
    BodyReader.Body ended = BodyReader.read(Okio.buffer(network(null, gzip("first "), cutHeader)), true, 1000);
    BodyReader.Body reset = BodyReader.read(
        Okio.buffer(network(new java.net.ProtocolException("unexpected end of stream"), gzip("first "), cutHeader)),
        true, 1000);

    assertThat(ended.truncated()).isTrue();
    assertThat(ended.badEncoding()).isTrue();
    assertThat(text(ended)).isEqualTo("first ");
    for (byte[] start : new byte[][] {{0x1f}, {0x1f, (byte) 0x8b}}) {   // fewer bytes than a member starts with
      assertThat(BodyReader.read(Okio.buffer(network(null, gzip("first "), start)), true, 1000).truncated()).isTrue();
    }
    assertThat(reset.failure()).hasMessage("unexpected end of stream");   // the network's, passed on
    assertThat(reset.badEncoding()).isFalse();
  }

  @Test
  void theCapStopsInsideTheSecondMember() {
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, gzip("a".repeat(600)), gzip("b".repeat(600)))),
        true, 1000);

    assertThat(body.truncated()).isTrue();
    assertThat(text(body)).isEqualTo("a".repeat(600) + "b".repeat(400));
  }
}
