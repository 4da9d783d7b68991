package dev.crawler.fetch;

import java.io.IOException;
import java.util.Arrays;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;

/**
 * Reads a response body up to a cap, decompressing gzip and deflate itself. The fetcher asks for
 * gzip and so OkHttp leaves the body alone; decompressing here lets the cap count decompressed
 * bytes, so a 50 KB gzip bomb that inflates to gigabytes stops at the cap like any other long
 * body. Other encodings are kept as sent (see {@link ContentCoding}).
 *
 * <p>gzip is decoded by {@link GzipBody}, which keeps nothing of a header in memory and ignores
 * bytes after the last member, as browsers do; deflate, zlib-wrapped or raw, by {@link DeflateBody}.
 * What a decoded body may take from the network is capped as well ({@link #wireLimit}), so
 * neither an endless header nor deflate blocks that decode to nothing can hold a worker until the
 * call's timeout.
 */
final class BodyReader {
  private static final int STEP = 8192;

  private BodyReader() {}

  /**
   * How reading went.
   *
   * @param bytes what was read, decompressed, at most the cap
   * @param truncated true when the body went past the cap or the read failed part way
   * @param wireBytes bytes taken from the network, compressed if the body was
   * @param failure the read's failure, or null
   * @param badEncoding true when {@code failure} is the gzip or deflate data's fault, not the network's
   */
  record Body(byte[] bytes, boolean truncated, long wireBytes, IOException failure, boolean badEncoding) {}

  /**
   * Network bytes a decoded body may take for a cap of decoded bytes. Deflate grows data it cannot
   * compress by a few bytes in 16 KB, so only a body built to waste our time reaches this.
   */
  static long wireLimit(long cap) {
    return cap + cap / 16 + 65_536;
  }

  static Body read(BufferedSource body, ContentCoding coding, long cap) {
    CountingSource counting = new CountingSource(body, coding == ContentCoding.AS_SENT ? Long.MAX_VALUE : wireLimit(cap));
    BufferedSource wire = Okio.buffer(counting);
    Buffer out = new Buffer();
    try {
      // An empty body is not broken gzip: 204s and 304s often name an encoding and send nothing.
      boolean complete = coding == ContentCoding.AS_SENT || wire.exhausted() ? copy(wire, out, cap)
          : coding == ContentCoding.GZIP ? GzipBody.decode(wire, out, cap) : DeflateBody.decode(wire, out, cap);
      return new Body(upToCap(out, cap), !complete, counting.count, null, false);
    } catch (WireLimitReached e) {
      return new Body(upToCap(out, cap), true, counting.count, null, false);
    } catch (IOException e) {
      return new Body(upToCap(out, cap), true, counting.count, e, !counting.failed);
    }
  }

  /** What was read, less the byte past the cap that told the body was longer. */
  private static byte[] upToCap(Buffer out, long cap) {
    byte[] read = out.readByteArray();
    return read.length > cap ? Arrays.copyOf(read, (int) cap) : read;
  }

  /** Copies up to one byte past the cap (getting it is how we know the body is longer); true if the body ended first. */
  private static boolean copy(Source wire, Buffer out, long cap) throws IOException {
    while (out.size() <= cap) {
      if (wire.read(out, Math.min(STEP, cap + 1 - out.size())) == -1) {
        return true;
      }
    }
    return false;
  }

  /** A decoded body took more from the network than its cap allows: kept as truncated, like a long body. */
  private static final class WireLimitReached extends IOException {
    private static final long serialVersionUID = 1L;

    WireLimitReached(long limit) {
      super("more than " + limit + " bytes on the wire");
    }
  }

  /** Counts bytes read from the network, notes whether the network failed, and stops at a limit. */
  private static final class CountingSource extends ForwardingSource {
    private final long limit;
    long count;
    boolean failed;

    CountingSource(Source delegate, long limit) {
      super(delegate);
      this.limit = limit;
    }

    @Override
    public long read(Buffer sink, long byteCount) throws IOException {
      if (count >= limit) {
        throw new WireLimitReached(limit);
      }
      long read;
      try {
        read = super.read(sink, Math.min(byteCount, limit - count));
      } catch (IOException e) {
        failed = true;
        throw e;
      }
      if (read > 0) {
        count += read;
      }
      return read;
    }
  }
}
