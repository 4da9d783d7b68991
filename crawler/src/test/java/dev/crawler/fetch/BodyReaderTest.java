package dev.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import okio.Buffer;
import okio.Okio;
import okio.Source;
import okio.Timeout;
import org.junit.jupiter.api.Test;

/** gzip and deflate bodies as the network hands them over: in pieces, one read at a time. */
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

  /** {@code text} deflated: zlib-wrapped (RFC 1950), as RFC 9110 says, or raw (RFC 1951), as some servers send it. */
  private static byte[] deflate(byte[] text, boolean zlib) {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, !zlib);
    deflater.setInput(text);
    deflater.finish();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    while (!deflater.finished()) {
      bytes.write(chunk, 0, deflater.deflate(chunk));
    }
    deflater.end();
    return bytes.toByteArray();
  }

  private static byte[] deflate(String text, boolean zlib) {
    return deflate(text.getBytes(StandardCharsets.UTF_8), zlib);
  }

  /** {@code bytes} cut into pieces of {@code size}. */
  private static byte[][] pieces(byte[] bytes, int size) {
    byte[][] parts = new byte[(bytes.length + size - 1) / size][];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = Arrays.copyOfRange(bytes, i * size, Math.min(bytes.length, (i + 1) * size));
    }
    return parts;
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
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, gzip("hello "), gzip("world"))), ContentCoding.GZIP, 1000);

    assertThat(text(body)).isEqualTo("hello world");
    assertThat(body.truncated()).isFalse();
    assertThat(body.failure()).isNull();
  }

  @Test
  void aResetAfterTheFirstMemberIsANetworkFailureNotTheEnd() {
    byte[] secondHead = Arrays.copyOf(gzip("world"), 4);
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(new SocketException("Connection reset"), gzip("hello "), secondHead)), ContentCoding.GZIP, 1000);

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
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, parts)), ContentCoding.GZIP, 1000);

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

    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, flagged.toByteArray())), ContentCoding.GZIP, 1000);

    assertThat(text(body)).isEqualTo("flags");
  }

  @Test
  void aWrongCrcOrCutDataIsBadEncoding() {
    byte[] wrongCrc = gzip("checked");
    wrongCrc[wrongCrc.length - 8] ^= 1;
    byte[] cut = Arrays.copyOf(gzip("cut short ".repeat(50)), 30);

    for (byte[] broken : new byte[][] {wrongCrc, cut, "not gzip".getBytes(StandardCharsets.US_ASCII)}) {
      BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, broken)), ContentCoding.GZIP, 1000);
      assertThat(body.failure()).isNotNull();
      assertThat(body.badEncoding()).as(body.failure().getMessage()).isTrue();
    }
  }

  @Test
  void bytesAfterTheLastMemberThatStartNoMemberAreIgnored() {
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(null, gzip("kept"), "\r\n<!-- appended by a proxy -->".getBytes(StandardCharsets.US_ASCII))),
        ContentCoding.GZIP, 1000);

    assertThat(text(body)).isEqualTo("kept");
    assertThat(body.failure()).isNull();
  }

  @Test
  void junkAfterTheLastMemberThatStartsLikeAMemberIsIgnoredToo() {
    BodyReader.Body body = BodyReader.read(
        Okio.buffer(network(null, gzip("kept"), new byte[] {0x1f, (byte) 0x8b, 0, 0, 0})), ContentCoding.GZIP, 1000);

    assertThat(text(body)).isEqualTo("kept");
    assertThat(body.failure()).isNull();
  }

  @Test
  void aSecondMemberCutInItsHeaderIsDataLostNotTheEnd() {
    byte[] cutHeader = {0x1f, (byte) 0x8b, 8};
    BodyReader.Body ended = BodyReader.read(Okio.buffer(network(null, gzip("first "), cutHeader)), ContentCoding.GZIP, 1000);
    BodyReader.Body reset = BodyReader.read(
        Okio.buffer(network(new java.net.ProtocolException("unexpected end of stream"), gzip("first "), cutHeader)),
        ContentCoding.GZIP, 1000);

    assertThat(ended.truncated()).isTrue();
    assertThat(ended.badEncoding()).isTrue();
    assertThat(text(ended)).isEqualTo("first ");
    for (byte[] start : new byte[][] {{0x1f}, {0x1f, (byte) 0x8b}}) {   // fewer bytes than a member starts with
      assertThat(BodyReader.read(Okio.buffer(network(null, gzip("first "), start)), ContentCoding.GZIP, 1000).truncated()).isTrue();
    }
    assertThat(reset.failure()).hasMessage("unexpected end of stream");   // the network's, passed on
    assertThat(reset.badEncoding()).isFalse();
  }

  @Test
  void theCapStopsInsideTheSecondMember() {
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, gzip("a".repeat(600)), gzip("b".repeat(600)))),
        ContentCoding.GZIP, 1000);

    assertThat(body.truncated()).isTrue();
    assertThat(text(body)).isEqualTo("a".repeat(600) + "b".repeat(400));
  }

  // ---------------------------------------------------------------- deflate

  @org.junit.jupiter.params.ParameterizedTest(name = "zlib-wrapped: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void aDeflateBodyIsDecodedZlibWrappedOrRaw(boolean zlib) {
    String page = "<html><a href=/next>next</a></html>".repeat(50);
    byte[] sent = deflate(page, zlib);

    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, pieces(sent, 7))), ContentCoding.DEFLATE, 10_000);

    assertThat(text(body)).isEqualTo(page);
    assertThat(body.truncated()).isFalse();
    assertThat(body.failure()).isNull();
    assertThat(body.wireBytes()).isEqualTo(sent.length);
  }

  @Test
  void aDeflateBombStopsAtTheCapInDecodedBytes() {
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, deflate(new byte[10 << 20], true))),
        ContentCoding.DEFLATE, 1000);

    assertThat(body.truncated()).isTrue();
    assertThat(body.bytes()).hasSize(1000);
  }

  @Test
  void aZlibBodyWhoseChecksumIsWrongIsBadEncoding() {
    byte[] sent = deflate("a page whose checksum was spoilt", true);
    sent[sent.length - 1] ^= 1;

    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, sent)), ContentCoding.DEFLATE, 1000);

    assertThat(body.failure()).hasMessageContaining("bad deflate data");
    assertThat(body.badEncoding()).isTrue();
  }

  @Test
  void deflateDataCutShortIsBadEncodingAndANetworkFailureIsNot() {
    byte[] sent = deflate("x".repeat(100) + "a page that never ends " + "y".repeat(100), false);
    byte[] cut = Arrays.copyOf(sent, sent.length / 2);

    BodyReader.Body ended = BodyReader.read(Okio.buffer(network(null, cut)), ContentCoding.DEFLATE, 1000);
    BodyReader.Body reset = BodyReader.read(Okio.buffer(network(new SocketException("Connection reset"), cut)),
        ContentCoding.DEFLATE, 1000);

    assertThat(ended.failure()).hasMessage("deflate data cut short");
    assertThat(ended.badEncoding()).isTrue();
    assertThat(reset.failure()).isInstanceOf(SocketException.class);
    assertThat(reset.badEncoding()).isFalse();
    assertThat(reset.truncated()).isTrue();
  }

  @Test
  void bytesAfterTheDeflateDataAreIgnoredAsAfterGzip() {
    byte[] sent = deflate("<p>done", true);

    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null, sent, "\n".getBytes(StandardCharsets.UTF_8))),
        ContentCoding.DEFLATE, 1000);

    assertThat(text(body)).isEqualTo("<p>done");
    assertThat(body.failure()).isNull();
  }

  @Test
  void anEmptyBodyNamedDeflateIsEmptyNotBroken() {
    BodyReader.Body body = BodyReader.read(Okio.buffer(network(null)), ContentCoding.DEFLATE, 1000);

    assertThat(body.bytes()).isEmpty();
    assertThat(body.failure()).isNull();
  }
}
