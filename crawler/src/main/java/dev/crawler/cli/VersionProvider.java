package dev.crawler.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** The crawler's version, from a resource that the build fills in. */
public final class VersionProvider implements CommandLine.IVersionProvider {

  /** The version, such as {@code 0.1.0-SNAPSHOT}; also sent in the User-Agent header. */
  public static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
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

  @Override
  public String[] getVersion() {
    return new String[] {"crawler " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
  }
}
