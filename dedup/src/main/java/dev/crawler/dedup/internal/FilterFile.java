package dev.crawler.dedup.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The Bloom filter's file. Layout, all integers little-endian:
 * <pre>
 *   offset size  field
 *        0    8  magic "CRAWLBF\0"
 *        8    1  format version (1)
 *        9    1  layout id (BloomFilter.Layout: 1 cache line, 2 page)
 *       10    1  hash id (1 = MurmurHash3 x64-128 of UTF-16 code units, UrlFingerprint)
 *       11    1  hashes per key (k)
 *       12    8  block count
 *       20    8  insertions (keys that set a bit)
 *       28    8  set bits
 *       36    8  expected insertions
 *       44    8  target false-positive rate (IEEE 754 double)
 *       52    4  CRC32C of bytes 0..51
 *       56    .  the bit array: block count × block bits / 64 longs
 *      end    4  CRC32C of the bit array
 * </pre>
 * It is written to a temporary file, forced to disk and renamed over the old one, so a
 * crash leaves the old file or the new one, never half of one.
 */
public final class FilterFile {
  private FilterFile() {}

  static final byte[] MAGIC = {'C', 'R', 'A', 'W', 'L', 'B', 'F', 0};
  public static final int FORMAT_VERSION = 1;
  public static final int HASH_MURMUR3_128_UTF16 = 1;
  public static final int HEADER_BYTES = 56;
  private static final int CHUNK_LONGS = 1 << 17;   // 1 MB of bits per write

  /** The header's fields. */
  public record Header(int layoutId, int hashId, int hashes, long blockCount, long insertions, long setBits,
      long expectedInsertions, double targetRate) {}

  /** A filter read back: its header and bits. */
  public record Contents(Header header, BitBlocks bits) {}

  /** A filter file that cannot be used: damaged, truncated, or of another format. */
  public static final class CorruptFilterException extends IOException {
    private static final long serialVersionUID = 1L;

    CorruptFilterException(Path file, String why) {
      super("Bloom filter file " + file + " cannot be used: " + why);
    }
  }

  public static void write(Path file, Header header, BitBlocks bits) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      writeTemp(temp, header, bits);
    } catch (IOException | RuntimeException e) {
      // A full disk, say: a part-written temp file (up to the filter's size, 1.2 GB at 10^9 URLs)
      // would stay on the disk the user frees for the resume.
      try {
        Files.deleteIfExists(temp);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    try {
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
    }
    syncDirectory(file.toAbsolutePath().getParent());
  }

  private static void writeTemp(Path temp, Header header, BitBlocks bits) throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      head.put(MAGIC).put((byte) FORMAT_VERSION).put((byte) header.layoutId()).put((byte) header.hashId())
          .put((byte) header.hashes()).putLong(header.blockCount()).putLong(header.insertions())
          .putLong(header.setBits()).putLong(header.expectedInsertions()).putDouble(header.targetRate());
      crc.update(head.array(), 0, 52);
      head.putInt((int) crc.getValue()).flip();
      writeFully(out, head);

      crc.reset();
      ByteBuffer chunk = ByteBuffer.allocate(CHUNK_LONGS * 8).order(ByteOrder.LITTLE_ENDIAN);
      LongBuffer longs = chunk.asLongBuffer();
      for (int p = 0; p < bits.pageCount(); p++) {
        long[] page = bits.page(p);
        for (int offset = 0; offset < page.length; offset += CHUNK_LONGS) {
          int n = Math.min(CHUNK_LONGS, page.length - offset);
          longs.clear();
          longs.put(page, offset, n);
          chunk.clear().limit(n * 8);
          crc.update(chunk.duplicate());
          writeFully(out, chunk);
        }
      }
      ByteBuffer tail = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).flip();
      writeFully(out, tail);
      out.force(true);
    }
  }

  /**
   * Makes the rename durable: the file's bytes were forced, but its name lives in the folder.
   * Without this a power cut could keep the store's "filter saved" mark, written with sync
   * after it, and lose the rename, so the next start would load the older file, short of this
   * run's URLs. Linux fsyncs a folder opened for reading; a system that refuses is left as is.
   */
  private static void syncDirectory(Path directory) {
    try (FileChannel folder = FileChannel.open(directory, StandardOpenOption.READ)) {
      folder.force(true);
    } catch (IOException refused) {
      // Not every filesystem or OS lets a folder be fsynced; the file itself was.
    }
  }

  public static Contents read(Path file) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size < HEADER_BYTES + 4) {
        throw new CorruptFilterException(file, "it has " + size + " bytes, fewer than a header");
      }
      ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      readFully(in, head, file);
      head.flip();
      byte[] magic = new byte[MAGIC.length];
      head.get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw new CorruptFilterException(file, "it is not a Bloom filter file (bad magic)");
      }
      CRC32C crc = new CRC32C();
      crc.update(head.array(), 0, 52);
      if (head.getInt(52) != (int) crc.getValue()) {
        throw new CorruptFilterException(file, "its header checksum does not match");
      }
      int version = head.get() & 0xFF;
      if (version != FORMAT_VERSION) {
        throw new CorruptFilterException(file, "format version " + version + " is not " + FORMAT_VERSION);
      }
      Header header = new Header(head.get() & 0xFF, head.get() & 0xFF, head.get() & 0xFF, head.getLong(),
          head.getLong(), head.getLong(), head.getLong(), head.getDouble());
      if (header.hashId() != HASH_MURMUR3_128_UTF16) {
        throw new CorruptFilterException(file, "hash id " + header.hashId() + " is not known");
      }
      int blockBits;
      try {
        blockBits = dev.crawler.dedup.BloomFilter.Layout.ofId(header.layoutId()).blockBits();
      } catch (IllegalArgumentException e) {
        throw new CorruptFilterException(file, "layout id " + header.layoutId() + " is not known");
      }
      long expectedSize = HEADER_BYTES + header.blockCount() * (blockBits / 8) + 4;
      if (header.blockCount() <= 0 || size != expectedSize) {
        throw new CorruptFilterException(file, "it has " + size + " bytes where its header says " + expectedSize);
      }
      BitBlocks bits = new BitBlocks(header.blockCount(), blockBits);
      crc.reset();
      ByteBuffer chunk = ByteBuffer.allocate(CHUNK_LONGS * 8).order(ByteOrder.LITTLE_ENDIAN);
      for (int p = 0; p < bits.pageCount(); p++) {
        long[] page = bits.page(p);
        for (int offset = 0; offset < page.length; offset += CHUNK_LONGS) {
          int n = Math.min(CHUNK_LONGS, page.length - offset);
          chunk.clear().limit(n * 8);
          readFully(in, chunk, file);
          chunk.flip();
          crc.update(chunk.duplicate());
          chunk.asLongBuffer().get(page, offset, n);
        }
      }
      ByteBuffer tail = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      readFully(in, tail, file);
      if (tail.getInt(0) != (int) crc.getValue()) {
        throw new CorruptFilterException(file, "its bit array checksum does not match");
      }
      return new Contents(header, bits);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no Bloom filter file");
    }
  }

  private static void writeFully(FileChannel out, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
  }

  private static void readFully(FileChannel in, ByteBuffer buffer, Path file) throws IOException {
    while (buffer.hasRemaining()) {
      if (in.read(buffer) < 0) {
        throw new CorruptFilterException(file, "it ends early");
      }
    }
  }
}
