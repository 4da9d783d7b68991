package dev.crawler.rocks;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A native library copied out of the class path into a folder of its own, once. The copy is
 * written to a temporary file in the same folder and renamed into place, so a reader sees the whole
 * file or none, and two processes that unpack at once each rename a whole copy of the same bytes.
 */
final class UnpackedLibrary {
  /** A part file older than this was left by a process killed while unpacking. */
  private static final Duration ABANDONED = Duration.ofHours(1);
  private static final String PART_SUFFIX = ".part";
  private static final Logger log = LoggerFactory.getLogger(UnpackedLibrary.class);

  /** A resource of a class loader. */
  record Source(ClassLoader loader, String name) {}

  private UnpackedLibrary() {}

  /**
   * The file {@code fileName} in {@code folder}, unpacked from {@code source} if it is missing or
   * its size differs from the resource's.
   */
  static Path in(Path folder, String fileName, Source source) throws IOException {
    URL url = source.loader().getResource(source.name());
    if (url == null) {
      throw new FileNotFoundException(source.name() + " is not on the class path");
    }
    Path target = folder.resolve(fileName);
    long expectedSize = url.openConnection().getContentLengthLong();
    if (Files.isRegularFile(target) && (expectedSize < 0 || Files.size(target) == expectedSize)) {
      return target;
    }
    Files.createDirectories(folder);
    removeAbandonedParts(folder);
    Path part = Files.createTempFile(folder, fileName + ".", PART_SUFFIX);
    try {
      try (InputStream in = url.openStream()) {
        Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
      }
      moveIntoPlace(part, target);
    } finally {
      Files.deleteIfExists(part);
    }
    log.info("Unpacked {} ({} MB) once, to {}", source.name(), Files.size(target) >> 20, target);
    return target;
  }

  private static void moveIntoPlace(Path part, Path target) throws IOException {
    try {
      Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // Replacing a library another process has loaded fails on Windows; that one is whole.
      if (!Files.isRegularFile(target)) {
        throw e;
      }
    }
  }

  private static void removeAbandonedParts(Path folder) throws IOException {
    FileTime before = FileTime.from(Instant.now().minus(ABANDONED));
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(folder, "*" + PART_SUFFIX)) {
      for (Path part : parts) {
        try {
          if (Files.getLastModifiedTime(part).compareTo(before) < 0) {
            Files.deleteIfExists(part);
          }
        } catch (IOException e) {
          // Gone already, or another process's: either way not this one's to keep.
        }
      }
    }
  }
}
