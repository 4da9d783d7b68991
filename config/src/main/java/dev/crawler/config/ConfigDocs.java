package dev.crawler.config;

import dev.crawler.config.internal.ConfigWriter;
import dev.crawler.config.internal.Settings;

/** The defaults file, a comment for every key, that {@code config --defaults} prints. */
public final class ConfigDocs {
  private ConfigDocs() {}

  /** Every key at its default, with a comment per section and per key. Loading it gives the defaults. */
  public static String defaultsYaml() {
    return "# Crawler configuration: every key with its default.\n"
        + "# Durations: 500ms, 2s, 5m, 1h, 7d. Sizes: 512KB, 10MB, 6GB (powers of 1024). Rates: 1% or 0.01.\n"
        + "# Relative paths are resolved against the folder of this file.\n\n"
        + ConfigWriter.write(Settings.defaults(), true);
  }
}
