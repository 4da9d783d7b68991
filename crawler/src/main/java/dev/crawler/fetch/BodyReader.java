package dev.crawler.fetch;

import java.io.IOException;
import java.util.Locale;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.GzipSource;
import okio.Okio;
import okio.Source;

/**
 * Reads a response body up to a cap, decompressing gzip itself. The fetcher asks for gzip and
 * so OkHttp leaves the body alone; decompressing here lets the cap count decompressed bytes, so
 * a 50 KB gzip bomb that inflates to gigabytes stops at the cap like any other long body.
 * Encodings other than gzip are kept as sent: the fetcher never asks for them.
 */
final class BodyReader {
  private static final long STEP = 8192;

  private BodyReader() {}

  /**
   * How reading went.
   *
   * @param bytes what was read, decompressed, at most the cap
   * @param truncated true when the body went past the cap or the read failed part way
   * @param wireBytes bytes taken from the network, compressed if the body was
   * @param failure the read's failure, or null
   * @param badEncoding true when {@code failure} is the gzip data's fault, not the network's
   */
  record Body(byte[] bytes, boolean truncated, long wireBytes, IOException failure, boolean badEncoding) {}

  static boolean isGzip(String contentEncoding) {
    if (contentEncoding == null) {
      return false;
    }
    String encoding = contentEncoding.trim().toLowerCase(Locale.ROOT);
    return encoding.equals("gzip") || encoding.equals("x-gzip");
  }

  static Body read(BufferedSource body, String contentEncoding, long cap) {
    CountingSource counting = new CountingSource(body);
    BufferedSource wire = Okio.buffer(counting);
    Buffer out = new Buffer();
    Source decoded = wire;
    try {
      // An empty body is not broken gzip: 204s and 304s often name an encoding and send nothing.
      if (isGzip(contentEncoding) && !wire.exhausted()) {
        decoded = new GzipSource(wire);
      }
      // Ask for one byte past the cap: getting it is how we know the body is longer.
      while (out.size() <= cap) {
        if (decoded.read(out, Math.min(STEP, cap + 1 - out.size())) == -1) {
          return new Body(out.readByteArray(), false, counting.count, null, false);
        }
      }
      return new Body(out.readByteArray(cap), true, counting.count, null, false);
    } catch (IOException e) {
      return new Body(out.readByteArray(), true, counting.count, e, !counting.failed);
    }
  }

  /** Counts bytes read from the network and notes whether the network failed. */
  private static final class CountingSource extends ForwardingSource {
    long count;
    boolean failed;

    CountingSource(Source delegate) {
      super(delegate);
    }

    @Override
    public long read(Buffer sink, long byteCount) throws IOException {
      try {
        long read = super.read(sink, byteCount);
        if (read > 0) {
          count += read;
        }
        return read;
      } catch (IOException e) {
        failed = true;
        throw e;
      }
    }
  }
}
