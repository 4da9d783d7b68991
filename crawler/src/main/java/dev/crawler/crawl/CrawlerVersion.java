package dev.crawler.crawl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The crawler's version, from a resource that the build fills in; sent in User-Agent and WARC records. */
public final class CrawlerVersion {
  private static final String VERSION = read();

  private CrawlerVersion() {}

  /** The version, such as {@code 0.1.0-SNAPSHOT}; "unknown" when run from classes the build did not package. */
  public static String version() {
    return VERSION;
  }

  private static String read() {
    try (InputStream in = CrawlerVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
