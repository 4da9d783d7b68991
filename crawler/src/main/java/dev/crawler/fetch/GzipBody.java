package dev.crawler.fetch;

import java.io.IOException;
import java.net.ProtocolException;
import java.util.zip.CRC32;
import java.util.zip.Inflater;
import okio.Buffer;
import okio.BufferedSource;
import okio.InflaterSource;

/**
 * Decodes a gzip'd body (RFC 1952) as browsers do, written here because neither decoder at hand
 * does: okio's {@code GzipSource} keeps a header's file name in memory until its zero byte (an
 * endless one filled the heap) and fails a body with a byte after the trailer; the JDK's
 * {@code GZIPInputStream} looks for a second member only in bytes already buffered before JDK 23
 * (a member arriving in a later read was dropped and the body reported whole) and, from JDK 23,
 * takes a network failure after a member for the end of the body. Here: members one after
 * another are one body; bytes after a member that are no gzip header are ignored, but a header
 * cut short is data lost (the body is not whole); a name or
 * comment is skipped as it arrives; every member's CRC and length are checked; and any failure of
 * the network reaches the caller. The inflating itself is the JDK's {@link Inflater}, through
 * okio's {@link InflaterSource}, which gives back the bytes past a member's end.
 */
final class GzipBody {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int STEP = 8192;

  private GzipBody() {}

  /**
   * Decodes into {@code out} up to one byte past {@code cap}; true if the body ended first.
   *
   * @throws ProtocolException if the bytes are not gzip (the data's fault, not the network's)
   * @throws IOException as the network fails
   */
  static boolean decode(BufferedSource wire, Buffer out, long cap) throws IOException {
    if (!member(wire, out, cap)) {
      return false;
    }
    while (anotherMemberFollows(wire)) {
      if (!member(wire, out, cap)) {
        return false;
      }
    }
    return true;
  }

  private static final byte[] MEMBER_START = {0x1f, (byte) 0x8b, 8};   // the magic, then deflate

  /**
   * After a member: true if another starts; false at the end of the body or before junk (bytes
   * that do not start as a member does, ignored as browsers ignore them). Bytes that do start
   * so but end before three are a member cut short, data lost: they throw.
   */
  private static boolean anotherMemberFollows(BufferedSource wire) throws IOException {
    if (!wire.request(1)) {
      return false;
    }
    int have = wire.request(MEMBER_START.length) ? MEMBER_START.length : (int) wire.getBuffer().size();
    for (int i = 0; i < have; i++) {
      if (wire.getBuffer().getByte(i) != MEMBER_START[i]) {
        return false;
      }
    }
    if (have < MEMBER_START.length) {
      throw new ProtocolException("gzip header cut short");
    }
    return true;
  }

  /** One member; false if the cap was passed inside it. */
  private static boolean member(BufferedSource wire, Buffer out, long cap) throws IOException {
    skipHeader(wire);
    Inflater inflater = new Inflater(true);
    try {
      InflaterSource inflated = new InflaterSource(wire, inflater);
      CRC32 crc = new CRC32();
      Buffer chunk = new Buffer();
      while (true) {
        if (out.size() > cap) {
          return false;
        }
        long read;
        try {
          read = inflated.read(chunk, Math.min(STEP, cap + 1 - out.size()));
        } catch (java.io.EOFException e) {
          throw new ProtocolException("gzip data cut short");
        } catch (IOException e) {
          if (e.getCause() instanceof java.util.zip.DataFormatException) {
            throw new ProtocolException("bad deflate data: " + e.getCause().getMessage());
          }
          throw e;
        }
        if (read == -1) {
          break;
        }
        byte[] bytes = chunk.readByteArray();
        crc.update(bytes);
        out.write(bytes);
      }
      if (!wire.request(8)) {
        throw new ProtocolException("gzip trailer cut short");
      }
      long expectedCrc = wire.readIntLe() & 0xffffffffL;
      long expectedSize = wire.readIntLe() & 0xffffffffL;
      if (expectedCrc != crc.getValue() || expectedSize != (inflater.getBytesWritten() & 0xffffffffL)) {
        throw new ProtocolException("gzip CRC or length does not match its data");
      }
      return true;
    } finally {
      inflater.end();
    }
  }

  /**
   * Reads past a member's header. Bytes that are no gzip header, or one that ends too soon, throw
   * a {@link ProtocolException} (the data's fault); the network's own failures pass as they are.
   */
  private static void skipHeader(BufferedSource wire) throws IOException {
    if (!wire.request(3)) {
      throw new ProtocolException("gzip header cut short");
    }
    Buffer head = wire.getBuffer();
    if (head.getByte(0) != 0x1f || head.getByte(1) != (byte) 0x8b || head.getByte(2) != 8) {
      throw new ProtocolException("not gzip data");
    }
    if (!wire.request(10)) {
      throw new ProtocolException("gzip header cut short");
    }
    int flags = head.getByte(3);
    wire.skip(10);
    if ((flags & FEXTRA) != 0) {
      if (!wire.request(2)) {
        throw new ProtocolException("gzip header cut short");
      }
      int length = wire.readShortLe() & 0xffff;
      wire.skip(length);
    }
    if ((flags & FNAME) != 0) {
      skipZeroTerminated(wire);
    }
    if ((flags & FCOMMENT) != 0) {
      skipZeroTerminated(wire);
    }
    if ((flags & FHCRC) != 0) {
      wire.skip(2);
    }
  }

  /** Skips through a zero byte, looking only at what each read brought: nothing piles up in memory. */
  private static void skipZeroTerminated(BufferedSource wire) throws IOException {
    while (true) {
      if (!wire.request(1)) {
        throw new ProtocolException("gzip header cut short");
      }
      Buffer buffered = wire.getBuffer();
      long zero = buffered.indexOf((byte) 0, 0, buffered.size());
      if (zero >= 0) {
        wire.skip(zero + 1);
        return;
      }
      wire.skip(buffered.size());
    }
  }
}
