package dev.crawler.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeedFileTest {
  @TempDir Path dir;

  @Test
  void seedsAreReadWithTheirLinesCommentsAndBlankLinesLeftOut() throws Exception {
    Path file = dir.resolve("seeds.txt");
    Files.writeString(file, "# seeds\nhttps://a.test/\n\n  https://b.test/x  # the second\n");
    assertThat(SeedFile.read(file)).containsExactly(
        new SeedFile.Seed(2, "https://a.test/"), new SeedFile.Seed(4, "https://b.test/x"));
  }

  @Test
  void aByteOrderMarkBeforeTheFirstSeedIsNotPartOfIt() throws Exception {
    Path file = dir.resolve("seeds.txt");
    Files.writeString(file, "\uFEFFhttps://a.test/\nhttps://b.test/\n", StandardCharsets.UTF_8);
    assertThat(SeedFile.read(file)).extracting(SeedFile.Seed::url).containsExactly("https://a.test/", "https://b.test/");
  }

  @Test
  void aFileThatIsNotUtf8IsRefusedWithItsName() throws Exception {
    Path file = dir.resolve("latin1.txt");
    Files.write(file, "https://caf\u00e9.test/\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> SeedFile.read(file)).isInstanceOf(CrawlStartException.class)
        .hasMessageContaining("latin1.txt").hasMessageContaining("not UTF-8");
  }
}
