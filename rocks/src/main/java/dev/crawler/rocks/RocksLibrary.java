package dev.crawler.rocks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's native library, unpacked once into the crawler's own cache folder and loaded from
 * there. RocksDB's own loader copies the 17 MB library to a new file in {@code java.io.tmpdir} at
 * every start and deletes it only on a clean exit, so each killed process leaves one behind.
 *
 * <p>Call {@link #load()} before any RocksDB object is made: RocksJava's option classes load the
 * library its own way in their static initializers, unless it is loaded already.
 *
 * <p>The folder is {@value #FOLDER_PROPERTY} if that system property is set, else
 * {@code $XDG_CACHE_HOME/crawler}, else {@code ~/.cache/crawler}; under it,
 * {@code rocksdb-<version>/} holds the file of this platform (its name says the platform). If
 * the folder cannot be written or the library not loaded from it, RocksDB's own loader is used,
 * with a warning.
 */
public final class RocksLibrary {
  /** System property that names the cache folder instead of the user's cache. */
  public static final String FOLDER_PROPERTY = "crawler.native-dir";

  private static final Logger log = LoggerFactory.getLogger(RocksLibrary.class);
  private static volatile Optional<Path> loadedFrom;

  private RocksLibrary() {}

  /** Loads the library, once per JVM; later calls return at once. */
  public static void load() {
    if (loadedFrom == null) {
      loadOnce();
    }
  }

  /** The file the library was loaded from, or empty if RocksDB's own loader loaded it (or nothing yet). */
  public static Optional<Path> loadedFrom() {
    Optional<Path> from = loadedFrom;
    return from == null ? Optional.empty() : from;
  }

  private static synchronized void loadOnce() {
    if (loadedFrom != null) {
      return;
    }
    Path folder = CacheFolder.of(System.getProperties(), System.getenv()).resolve("rocksdb-" + version());
    // RocksDB.loadLibrary(paths) loads <path>/<this name> and marks the library loaded for every
    // RocksJava class; the name differs from the resource's inside the jar.
    String fileName = Environment.getJniLibraryFileName("rocksdbjni");
    Path file;
    try {
      file = UnpackedLibrary.in(folder, fileName, resource());
    } catch (IOException | UncheckedIOException e) {
      log.warn("Cannot unpack RocksDB's native library into {} ({}); RocksDB unpacks it into {} instead",
          folder, e.getMessage(), System.getProperty("java.io.tmpdir"));
      RocksDB.loadLibrary();
      loadedFrom = Optional.empty();
      return;
    }
    try {
      RocksDB.loadLibrary(List.of(folder.toString()));
      loadedFrom = Optional.of(file);
    } catch (UnsatisfiedLinkError e) {
      // A folder on a noexec mount, for one.
      log.warn("Cannot load RocksDB's native library from {} ({}); RocksDB unpacks it into {} instead",
          file, e.getMessage(), System.getProperty("java.io.tmpdir"));
      RocksDB.loadLibrary();
      loadedFrom = Optional.empty();
    }
  }

  /** The library of this platform inside RocksDB's jar, as RocksDB's own loader looks it up. */
  private static UnpackedLibrary.Source resource() {
    ClassLoader loader = RocksDB.class.getClassLoader();
    String name = Environment.getJniLibraryFileName("rocksdb");
    if (loader.getResource(name) == null && Environment.getFallbackJniLibraryFileName("rocksdb") != null) {
      name = Environment.getFallbackJniLibraryFileName("rocksdb");
    }
    return new UnpackedLibrary.Source(loader, name);
  }

  /** The RocksDB version the build put in this module's resources. */
  static String version() {
    Properties properties = new Properties();
    try (InputStream in = RocksLibrary.class.getResourceAsStream("rocksdb.properties")) {
      if (in == null) {
        throw new IllegalStateException("rocksdb.properties is missing from the rocks module's resources");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read rocksdb.properties", e);
    }
    return properties.getProperty("version");
  }
}
