package dev.crawler.cluster;

import dev.crawler.dedup.UrlFingerprint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The URLs of a partition that were done elsewhere while this node did not own it: their done
 * records came after the checkpoint of a state this node held before. Its frontier may still
 * hold them queued (it has no removal by URL), so a lease of one is ended unfetched. Kept in a
 * file of 16-byte fingerprints beside the checkpoint, appended before the checkpoint moves past
 * them, so a restart still knows them. Empty for a state replayed from nothing: there the done
 * records come before the URLs, and a done URL is never queued.
 */
final class DoneElsewhere {
  static final String FILE = "done-elsewhere";
  private static final int RECORD = 16;

  private final Path file;
  private final boolean sync;
  private final Set<UrlFingerprint> done = ConcurrentHashMap.newKeySet();

  private DoneElsewhere(Path file, boolean sync) {
    this.file = file;
    this.sync = sync;
  }

  /** Reads the file if there is one; a last record a kill cut short is ignored (its checkpoint did not move). */
  static DoneElsewhere open(Path dir, boolean sync) throws IOException {
    DoneElsewhere d = new DoneElsewhere(dir.resolve(FILE), sync);
    if (Files.exists(d.file)) {
      byte[] all = Files.readAllBytes(d.file);
      if (all.length % RECORD != 0) {
        try (FileChannel f = FileChannel.open(d.file, StandardOpenOption.WRITE)) {
          f.truncate(all.length - all.length % RECORD);   // cut by a kill: the next append starts on a record
        }
      }
      for (int i = 0; i + RECORD <= all.length; i += RECORD) {
        byte[] one = new byte[RECORD];
        System.arraycopy(all, i, one, 0, RECORD);
        d.done.add(UrlFingerprint.fromBytes(one));
      }
    }
    return d;
  }

  void addAll(List<UrlFingerprint> fingerprints) throws IOException {
    if (fingerprints.isEmpty()) {
      return;
    }
    ByteBuffer bytes = ByteBuffer.allocate(fingerprints.size() * RECORD);
    for (UrlFingerprint f : fingerprints) {
      bytes.put(f.toBytes());
    }
    bytes.flip();
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
      if (sync) {
        out.force(true);
      }
    }
    done.addAll(fingerprints);
  }

  /** Whether {@code url} was done elsewhere: its lease is ended with no fetch. */
  boolean contains(String url) {
    return !done.isEmpty() && done.contains(UrlFingerprint.of(url));
  }

  int size() {
    return done.size();
  }
}
