package dev.crawler.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.demo.DemoSite;
import dev.crawler.demo.DemoSiteSpec;
import dev.crawler.demo.RequestLog;
import dev.crawler.rocks.RocksLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code crawler crawl}, with its frontier, URL-seen store and robots.txt store open,
 * killed with SIGKILL mid-crawl, then resumed and killed again: neither process leaves RocksDB's
 * native library in its {@code java.io.tmpdir}, and both load the one copy in the cache folder.
 */
class KilledCrawlLeavesNoNativeLibraryTest {
  static DemoSite site;
  static Path tmp;
  static Path cache;
  static List<Path> libraryAfterCrawl;
  static Object libraryKeyAfterCrawl;
  static Object libraryKeyAfterResume;

  @BeforeAll
  static void crawlKillResumeKill(@TempDir Path dir) throws Exception {
    site = DemoSite.start(DemoSiteSpec.generated(10, 60).withPageShape(24, 4_000));
    Path config = CrawlerProcess.config(dir, 4, 10_000);
    Path hosts = CrawlerProcess.hostsFile(site, dir);
    tmp = Files.createDirectories(dir.resolve("tmp"));
    cache = dir.resolve("cache");
    List<String> jvm = List.of("-Djava.io.tmpdir=" + tmp, "-D" + RocksLibrary.FOLDER_PROPERTY + "=" + cache);
    RequestLog log = site.requests();

    CrawlerProcess crawl = CrawlerProcess.start(dir, "crawl", hosts, jvm,
        "crawl", "--config", config.toString(), "--seeds", CrawlerProcess.seedFile(site, dir).toString());
    awaitRequests(crawl, log, 50);
    crawl.kill();
    libraryAfterCrawl = libraryFiles(cache);
    libraryKeyAfterCrawl = inode(libraryAfterCrawl);

    CrawlerProcess resume = CrawlerProcess.start(dir, "resume", hosts, jvm, "resume", "--config", config.toString());
    awaitRequests(resume, log, log.size() + 20);
    resume.kill();
    libraryKeyAfterResume = inode(libraryFiles(cache));
  }

  private static void awaitRequests(CrawlerProcess crawl, RequestLog log, int requests) throws InterruptedException {
    while (log.size() < requests) {
      assertThat(crawl.isAlive()).as("the crawl ended before the kill: %s", crawl.output()).isTrue();
      Thread.sleep(5);
    }
  }

  private static List<Path> libraryFiles(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(p -> p.getFileName().toString().startsWith("librocksdbjni")).toList();
    }
  }

  private static Object inode(List<Path> files) throws IOException {
    return files.size() == 1 ? Files.readAttributes(files.get(0), "unix:ino").get("ino") : files;
  }

  @AfterAll
  static void stopTheSite() {
    if (site != null) {
      site.close();
    }
  }

  @Test
  void noLibraryIsLeftInTheTmpdirOfEitherKilledProcess() throws IOException {
    assertThat(libraryFiles(tmp)).isEmpty();
  }

  @Test
  void theCrawlUnpackedOneCopyIntoTheCacheFolderAndTheResumeLoadedIt() {
    assertThat(libraryAfterCrawl).hasSize(1);
    assertThat(libraryKeyAfterResume).as("the same file, not a new copy").isEqualTo(libraryKeyAfterCrawl);
  }
}
