package dev.crawler.rocks;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The crawler's cache folder: the one a system property names, else the user's cache (XDG). */
final class CacheFolder {
  private CacheFolder() {}

  static Path of(Properties system, Map<String, String> env) {
    String named = system.getProperty(RocksLibrary.FOLDER_PROPERTY, "");
    if (!named.isBlank()) {
      return Path.of(named).toAbsolutePath();
    }
    // The XDG base directory spec ignores a relative XDG_CACHE_HOME.
    String xdg = env.getOrDefault("XDG_CACHE_HOME", "");
    if (!xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg, "crawler");
    }
    return Path.of(system.getProperty("user.home"), ".cache", "crawler");
  }
}
