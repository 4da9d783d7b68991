package dev.crawler.cli;

import dev.crawler.crawl.CrawlerVersion;
import picocli.CommandLine;

/** The crawler's version for {@code --version}, with the Java it runs on. */
public final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"crawler " + CrawlerVersion.version(),
        "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
  }
}
