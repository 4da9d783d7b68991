package dev.crawler.record;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes a WARC file a killed crawl left {@code .open}. Its pages were recorded and settled,
 * and are never fetched again, so this file is their only archive: it is cut after its last
 * complete gzip member (a record the kill cut in half is dropped), forced to disk, and given its
 * final name, so that tools which skip {@code .open} files, or fail on a torn record, read it.
 * The members are the recorder's own (one per record, a plain 10-byte header); each is checked
 * against its CRC-32 and length.
 */
final class LeftoverWarc {
  private static final Logger log = LoggerFactory.getLogger(LeftoverWarc.class);
  private static final int CHUNK = 64 * 1024;

  private LeftoverWarc() {}

  /** Finishes {@code openFile} ({@code <name>.open}); returns its final path, or null if it held no complete record. */
  static Path finish(Path openFile) throws IOException {
    String name = openFile.getFileName().toString();
    Path finalPath = openFile.resolveSibling(name.substring(0, name.length() - WarcFile.OPEN_SUFFIX.length()));
    long size = Files.size(openFile);
    long complete = completeMembersEnd(openFile);
    if (complete == 0) {
      Files.delete(openFile);
      log.warn("{} was left open by a crawl that did not stop cleanly and held no complete record: deleted", openFile);
      return null;
    }
    try (FileChannel file = FileChannel.open(openFile, StandardOpenOption.WRITE)) {
      if (complete < size) {
        file.truncate(complete);
      }
      file.force(true);
    }
    Files.move(openFile, finalPath, StandardCopyOption.ATOMIC_MOVE);
    if (complete < size) {
      log.warn("{} was left open by a crawl that did not stop cleanly: its last {} bytes, a record cut short, "
          + "were dropped, and it is now {}", openFile, size - complete, finalPath.getFileName());
    } else {
      log.info("{} was left open by a crawl that did not stop cleanly; its records are whole: now {}", openFile,
          finalPath.getFileName());
    }
    return finalPath;
  }

  /** The offset just past the last gzip member that is whole (header, deflate stream, CRC-32 and length). */
  static long completeMembersEnd(Path path) throws IOException {
    Inflater inflater = new Inflater(true);
    try (PushbackInputStream in = new PushbackInputStream(new BufferedInputStream(Files.newInputStream(path), CHUNK),
        CHUNK)) {
      byte[] input = new byte[CHUNK];
      byte[] output = new byte[CHUNK];
      CRC32 crc = new CRC32();
      long position = 0;
      long lastWhole = 0;
      while (true) {
        byte[] header = in.readNBytes(10);
        if (header.length < 10 || (header[0] & 0xff) != 0x1f || (header[1] & 0xff) != 0x8b || header[2] != 8
            || header[3] != 0) {
          return lastWhole;   // the end, a cut header, or not one of our members
        }
        position += 10;
        inflater.reset();
        crc.reset();
        long inflated = 0;
        int lastRead = 0;
        while (!inflater.finished()) {
          if (inflater.needsInput()) {
            lastRead = in.read(input);
            if (lastRead <= 0) {
              return lastWhole;   // the deflate stream is cut short
            }
            inflater.setInput(input, 0, lastRead);
            position += lastRead;
          }
          int n;
          try {
            n = inflater.inflate(output);
          } catch (DataFormatException e) {
            return lastWhole;
          }
          if (n == 0 && inflater.needsDictionary()) {
            return lastWhole;
          }
          crc.update(output, 0, n);
          inflated += n;
        }
        int unused = inflater.getRemaining();
        in.unread(input, lastRead - unused, unused);
        position -= unused;
        byte[] trailer = in.readNBytes(8);
        if (trailer.length < 8 || intLe(trailer, 0) != (int) crc.getValue() || intLe(trailer, 4) != (int) inflated) {
          return lastWhole;
        }
        position += 8;
        lastWhole = position;
      }
    } finally {
      inflater.end();
    }
  }

  private static int intLe(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }
}
