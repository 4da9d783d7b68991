package dev.crawler.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import okio.Buffer;
import okio.BufferedSource;
import okio.InflaterSource;

/**
 * Decodes a body sent with {@code Content-Encoding: deflate}. RFC 9110 says it is a zlib stream
 * (RFC 1950: a two-byte header, the deflate data, an Adler-32 checksum), but servers have long sent
 * raw deflate data (RFC 1951) under that name, and browsers take both: a body whose first two bytes
 * make a zlib header is read as zlib (checksum checked), any other as raw deflate. Bytes after the
 * end of the deflate data are ignored, as after gzip. The inflating is the JDK's {@link Inflater},
 * through okio's {@link InflaterSource}.
 */
final class DeflateBody {
  private static final int STEP = 8192;
  private static final int FDICT = 0x20;

  private DeflateBody() {}

  /**
   * Decodes into {@code out} up to one byte past {@code cap}; true if the body ended first.
   *
   * @throws ProtocolException if the bytes are not deflate data (the data's fault, not the network's)
   * @throws IOException as the network fails
   */
  static boolean decode(BufferedSource wire, Buffer out, long cap) throws IOException {
    boolean zlib = zlibHeader(wire);
    if (zlib && (wire.getBuffer().getByte(1) & FDICT) != 0) {
      throw new ProtocolException("zlib data that needs a preset dictionary");
    }
    Inflater inflater = new Inflater(!zlib);
    try {
      InflaterSource inflated = new InflaterSource(wire, inflater);
      while (out.size() <= cap) {
        long read;
        try {
          read = inflated.read(out, Math.min(STEP, cap + 1 - out.size()));
        } catch (EOFException e) {
          throw new ProtocolException("deflate data cut short");
        } catch (IOException e) {
          if (e.getCause() instanceof DataFormatException bad) {
            throw new ProtocolException("bad deflate data: " + bad.getMessage());
          }
          throw e;
        }
        if (read == -1) {
          return true;
        }
      }
      return false;
    } finally {
      inflater.end();
    }
  }

  /**
   * True if the body starts with a zlib header (RFC 1950 2.2): compression method 8 with a window
   * of at most 32 KiB, and a check value that makes the two bytes a multiple of 31. Raw deflate data
   * makes one by chance once in a few hundred bodies, and then fails as zlib (its checksum).
   */
  private static boolean zlibHeader(BufferedSource wire) throws IOException {
    if (!wire.request(2)) {
      return false;
    }
    int cmf = wire.getBuffer().getByte(0) & 0xff;
    int flg = wire.getBuffer().getByte(1) & 0xff;
    return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && (cmf * 256 + flg) % 31 == 0;
  }
}
