package dev.crawler.record;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * One WARC file being written: {@code <name>.open} until it is finished, then renamed to
 * {@code <name>}, so a reader (or a person) never mistakes a file still growing, or left by a
 * crash, for a complete one. Not thread-safe: {@link WarcRecorder} holds its lock around every call.
 */
final class WarcFile {
  static final String OPEN_SUFFIX = ".open";

  /** Opens the channel a file is written through; tests substitute one that fails like a full disk. */
  interface Opener {
    WritableByteChannel open(Path path) throws IOException;

    Opener FILES = path -> StreamChannels.writable(
        Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
  }

  private final Path finalPath;
  private final Path openPath;
  private final WritableByteChannel channel;
  private long size;
  private long exchanges;

  private WarcFile(Path finalPath, Path openPath, WritableByteChannel channel) {
    this.finalPath = finalPath;
    this.openPath = openPath;
    this.channel = channel;
  }

  static WarcFile create(Path finalPath, Opener opener) throws IOException {
    Path openPath = finalPath.resolveSibling(finalPath.getFileName() + OPEN_SUFFIX);
    return new WarcFile(finalPath, openPath, opener.open(openPath));
  }

  void append(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      size += channel.write(bytes);
    }
  }

  void countExchange() {
    exchanges++;
  }

  /** Forces the bytes to disk, closes the file and gives it its final name. */
  void finish() throws IOException {
    channel.close();
    // Through a descriptor of its own: fsync applies to the file, whichever descriptor asks. A
    // stream's, not a FileChannel's: an interrupt (a stop's, at rotation) closes a FileChannel.
    try (FileOutputStream file = new FileOutputStream(openPath.toFile(), true)) {
      file.getFD().sync();
    }
    Files.move(openPath, finalPath, StandardCopyOption.ATOMIC_MOVE);
  }

  /** After a failed write: close, and leave the {@code .open} name to say the file is incomplete. */
  void abandon() {
    try {
      channel.close();
    } catch (IOException | UncheckedIOException ignored) {
      // The write already failed and was reported; a second complaint adds nothing.
    }
  }

  long size() {
    return size;
  }

  long exchanges() {
    return exchanges;
  }

  Path openPath() {
    return openPath;
  }

  Path finalPath() {
    return finalPath;
  }
}
