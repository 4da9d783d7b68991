package dev.crawler.record;

import com.google.common.net.InetAddresses;
import dev.crawler.fetch.FetchResult;
import dev.crawler.fetch.FetchStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;

/**
 * Turns one fetch into its gzip-compressed WARC records, in memory, on the caller's thread.
 *
 * <p>Why in memory: compression is the costly part of writing a WARC (see {@link #DEFAULT_GZIP_LEVEL}),
 * and doing it under the file lock would let one worker at a time compress. Each record is
 * its own gzip member (WARC 1.1 annex D.2, "record-at-time compression"), so members compressed
 * apart and appended in any order make a valid file. One encoder serves one thread at a time;
 * {@link WarcRecorder} keeps a pool of them so their deflaters (native memory) are reused.
 */
final class RecordEncoder {
  /** A buffer grown past this by a large body is not kept in the pool. */
  private static final int KEPT_BUFFER_BYTES = 1 << 20;

  static final String WARC_1_1_SPEC =
      "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/";

  /**
   * Deflate level of the gzip members when none is given (output.warc-compression-level).
   * jwarc's own GZIP mode deflates at 9; 6 is gzip's default and what most WARC writers use.
   * Level 3 is the last of zlib's fast levels (no lazy matching; longer match chains than 1 and
   * 2): in the crawl bench it takes about a tenth less of the crawler's CPU a page than 6 for WARC
   * files 6% larger, and level 1 saves no more CPU for files 11% larger.
   */
  static final int DEFAULT_GZIP_LEVEL = 3;

  private final OpenBuffer plain = new OpenBuffer(64 * 1024);
  private final OpenBuffer out = new OpenBuffer(32 * 1024);
  private final WarcWriter writer;
  private final GzipMembers gzip;

  RecordEncoder(int gzipLevel) {
    gzip = new GzipMembers(gzipLevel);
    try {
      writer = new WarcWriter(StreamChannels.writable(plain), WarcCompression.NONE);
    } catch (IOException e) {
      throw new AssertionError("an in-memory WARC writer cannot fail to open", e);
    }
  }

  /** Writes one record uncompressed, then appends it to {@code out} as its own gzip member. */
  private void write(org.netpreserve.jwarc.WarcRecord record) throws IOException {
    plain.reset();
    writer.write(record);
    gzip.member(plain.bytes(), out);
  }

  /** Releases the deflater's native memory; the encoder cannot be used after. */
  void close() {
    gzip.close();
  }

  /**
   * The response record, then the request record, each pointing at the other with
   * WARC-Concurrent-To. The bytes are valid until the next call.
   */
  ByteBuffer encodeExchange(FetchResult result) throws IOException {
    out.reset();
    byte[] body = result.body() == null ? new byte[0] : result.body();
    // Milliseconds, as in the crawl log; some WARC readers choke on nanosecond fractions.
    Instant date = (result.startedAt() == null ? Instant.now() : result.startedAt()).truncatedTo(ChronoUnit.MILLIS);
    UUID responseId = UUID.randomUUID();
    UUID requestId = UUID.randomUUID();
    String ip = result.remoteIp() != null && InetAddresses.isInetAddress(result.remoteIp())
        ? result.remoteIp()
        : null;
    String warcProtocol = HttpBlocks.warcProtocol(result.protocol());

    byte[] responseHead = HttpBlocks.responseHead(result, body.length);
    WarcResponse.Builder response = new WarcResponse.Builder(result.url())
        .version(MessageVersion.WARC_1_1)
        .recordId(responseId)
        .date(date)
        .body(MediaType.HTTP_RESPONSE, concat(responseHead, body), responseHead.length + (long) body.length)
        .blockDigest(sha1(responseHead, body))
        .concurrentTo(urn(requestId));
    if (result.contentSkipped()) {
      // The content type was not accepted, so the body was never read: the record holds less than
      // the server sent, for a reason that is none of length, time or disconnect.
      response.truncated(WarcTruncationReason.UNSPECIFIED);
    } else {
      response.payloadDigest(sha1(body));
      if (result.status() != FetchStatus.RESPONSE) {
        response.truncated(switch (result.status()) {   // the body's read failed part way
          case TIMEOUT -> WarcTruncationReason.TIME;
          case CONNECTION_RESET, IO_ERROR -> WarcTruncationReason.DISCONNECT;
          default -> WarcTruncationReason.UNSPECIFIED;   // bad gzip or chunking: the server's fault
        });
      } else if (result.truncated()) {
        response.truncated(WarcTruncationReason.LENGTH);
      }
    }
    if (ip != null) {
      response.addHeader("WARC-IP-Address", ip);
    }
    if (warcProtocol != null) {
      response.addHeader("WARC-Protocol", warcProtocol);
    }
    write(response.build());

    byte[] requestHead = HttpBlocks.requestHead(result);
    WarcRequest.Builder request = new WarcRequest.Builder(result.url())
        .version(MessageVersion.WARC_1_1)
        .recordId(requestId)
        .date(date)
        .body(MediaType.HTTP_REQUEST, StreamChannels.readable(requestHead), requestHead.length)
        .blockDigest(sha1(requestHead))
        .concurrentTo(urn(responseId));
    if (ip != null) {
      request.addHeader("WARC-IP-Address", ip);
    }
    if (warcProtocol != null) {
      request.addHeader("WARC-Protocol", warcProtocol);
    }
    write(request.build());
    return out.bytes();
  }

  /** The first record of every file: who wrote it and in which format. */
  ByteBuffer encodeWarcinfo(Instant date, String fileName, String software, String isPartOf) throws IOException {
    out.reset();
    // application/warc-fields, written here: jwarc's fields() reads them back through an interruptible channel.
    byte[] fields = ("software: " + software + "\r\n"
        + "format: WARC File Format 1.1\r\n"
        + "conformsTo: " + WARC_1_1_SPEC + "\r\n"
        + "isPartOf: " + isPartOf + "\r\n").getBytes(StandardCharsets.UTF_8);
    write(new Warcinfo.Builder()
        .version(MessageVersion.WARC_1_1)
        .date(date.truncatedTo(ChronoUnit.MILLIS))
        .filename(fileName)
        .body(MediaType.WARC_FIELDS, StreamChannels.readable(fields), fields.length)
        .build());
    return out.bytes();
  }

  boolean worthKeeping() {
    return out.capacity() <= KEPT_BUFFER_BYTES && plain.capacity() <= KEPT_BUFFER_BYTES;
  }

  private static ReadableByteChannel concat(byte[] head, byte[] body) {
    return StreamChannels.readable(head, body);
  }

  private static URI urn(UUID id) {
    return URI.create("urn:uuid:" + id);
  }

  private static WarcDigest sha1(byte[]... parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-1");
      for (byte[] part : parts) {
        digest.update(part);
      }
      return new WarcDigest(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-1", e);
    }
  }

  /** A ByteArrayOutputStream whose bytes can be written out without a copy. */
  private static final class OpenBuffer extends ByteArrayOutputStream {
    OpenBuffer(int size) {
      super(size);
    }

    ByteBuffer bytes() {
      return ByteBuffer.wrap(buf, 0, count);
    }

    int capacity() {
      return buf.length;
    }
  }
}
