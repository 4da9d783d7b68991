package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Where one partition's local state stands in the crawl's topics: the next offset of its URL
 * topic partition and of its done topic partition that the state does not hold yet. Everything
 * before them is in the state; what comes after may be in it too (a kill between the state's
 * write and this one), which a replay from here makes harmless: URL-seen answers SEEN.
 *
 * <p>Its file, version 1, 25 bytes, big-endian:
 *
 * <pre>
 * [version u8 = 1][partition u32][urls next offset i64][done next offset i64][CRC32C of the 21 bytes before, u32]
 * </pre>
 *
 * Written whole to a temporary file and renamed over the old one, so a kill leaves the old
 * checkpoint or the new one, never a mix. The partition is in it so that a folder is never taken
 * for another partition's.
 *
 * @param urls the URL topic's next offset: the state holds every URL record before it
 * @param done the done topic's next offset: the state holds every done record before it
 */
public record PartitionCheckpoint(long urls, long done) {
  public static final byte VERSION = 1;
  static final String FILE = "checkpoint";
  private static final int SIZE = 25;

  public PartitionCheckpoint {
    checkArgument(urls >= 0, "urls offset (%s) must be >= 0", urls);
    checkArgument(done >= 0, "done offset (%s) must be >= 0", done);
  }

  /** Before any record. */
  public static final PartitionCheckpoint START = new PartitionCheckpoint(0, 0);

  PartitionCheckpoint withUrls(long next) {
    return new PartitionCheckpoint(next, done);
  }

  PartitionCheckpoint withDone(long next) {
    return new PartitionCheckpoint(urls, next);
  }

  static byte[] encode(int partition, PartitionCheckpoint c) {
    ByteBuffer b = ByteBuffer.allocate(SIZE);
    b.put(VERSION).putInt(partition).putLong(c.urls).putLong(c.done);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, SIZE - 4);
    b.putInt((int) crc.getValue());
    return b.array();
  }

  /** @throws IllegalStateException if the bytes are not a checkpoint of {@code partition} */
  static PartitionCheckpoint decode(int partition, byte[] bytes, Path file) {
    if (bytes.length != SIZE || bytes[0] != VERSION) {
      throw new IllegalStateException(file + " is not a partition checkpoint of version " + VERSION + " ("
          + bytes.length + " bytes" + (bytes.length > 0 ? ", version " + bytes[0] : "") + ")");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.get();
    int of = b.getInt();
    long urls = b.getLong();
    long done = b.getLong();
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, SIZE - 4);
    if (b.getInt() != (int) crc.getValue()) {
      throw new IllegalStateException(file + " is damaged: its checksum does not match");
    }
    if (of != partition) {
      throw new IllegalStateException(file + " is the checkpoint of partition " + of + ", not " + partition
          + ": a partition's state was moved to another's folder");
    }
    return new PartitionCheckpoint(urls, done);
  }

  /** The checkpoint in {@code dir}; empty if none was ever written there. */
  static Optional<PartitionCheckpoint> read(Path dir, int partition) throws IOException {
    Path file = dir.resolve(FILE);
    try {
      return Optional.of(decode(partition, Files.readAllBytes(file), file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Replaces the checkpoint in {@code dir}.
   *
   * @param fsync force the file and the rename to disk (survives a power cut); without it a
   *     killed process still leaves it whole, as the operating system holds the write
   */
  static void write(Path dir, int partition, PartitionCheckpoint c, boolean fsync) throws IOException {
    Path temporary = dir.resolve(FILE + ".tmp");
    try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(encode(partition, c));
      while (b.hasRemaining()) {
        out.write(b);
      }
      if (fsync) {
        out.force(true);
      }
    }
    Files.move(temporary, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    if (fsync) {
      try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
        folder.force(true);   // the rename itself, on Linux
      }
    }
  }
}
