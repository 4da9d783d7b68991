package dev.crawler.record;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses byte blocks into gzip members (RFC 1952), one member per block, so that each
 * WARC record is its own member (WARC 1.1 annex D.2). One deflater, reset between members, so
 * its native memory is allocated once per encoder. Not thread-safe.
 */
final class GzipMembers implements AutoCloseable {
  /** ID1 ID2, CM = deflate, no flags, no mtime, XFL 0, OS 255 (unknown). */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private final Deflater deflater;
  private final CRC32 crc = new CRC32();
  private final byte[] chunk = new byte[16 * 1024];

  GzipMembers(int level) {
    this.deflater = new Deflater(level, true);   // raw deflate: the gzip framing is ours
  }

  /** Appends {@code block} to {@code out} as one complete gzip member. */
  void member(ByteBuffer block, ByteArrayOutputStream out) {
    deflater.reset();
    crc.reset();
    out.write(HEADER, 0, HEADER.length);
    ByteBuffer input = block.duplicate();
    crc.update(input.duplicate());
    deflater.setInput(input);
    deflater.finish();
    while (!deflater.finished()) {
      int n = deflater.deflate(chunk);
      out.write(chunk, 0, n);
    }
    writeIntLe(out, (int) crc.getValue());
    writeIntLe(out, block.remaining());   // ISIZE: the input size mod 2^32
  }

  private static void writeIntLe(ByteArrayOutputStream out, int v) {
    out.write(v);
    out.write(v >>> 8);
    out.write(v >>> 16);
    out.write(v >>> 24);
  }

  @Override
  public void close() {
    deflater.end();
  }
}
