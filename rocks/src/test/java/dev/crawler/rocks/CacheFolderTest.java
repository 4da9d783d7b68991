package dev.crawler.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CacheFolderTest {
  private static Properties system(String... keysAndValues) {
    Properties properties = new Properties();
    properties.setProperty("user.home", "/home/ada");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      properties.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return properties;
  }

  @Test
  void theSystemPropertyWinsOverTheUsersCache() {
    assertThat(CacheFolder.of(system(RocksLibrary.FOLDER_PROPERTY, "/srv/crawler/native"),
        Map.of("XDG_CACHE_HOME", "/var/cache/ada"))).isEqualTo(Path.of("/srv/crawler/native"));
  }

  @Test
  void anAbsoluteXdgCacheHomeIsUsed() {
    assertThat(CacheFolder.of(system(), Map.of("XDG_CACHE_HOME", "/var/cache/ada")))
        .isEqualTo(Path.of("/var/cache/ada/crawler"));
  }

  @Test
  void aRelativeXdgCacheHomeIsIgnoredAsTheSpecSays() {
    assertThat(CacheFolder.of(system(), Map.of("XDG_CACHE_HOME", "cache"))).isEqualTo(Path.of("/home/ada/.cache/crawler"));
  }

  @Test
  void withoutEitherItIsTheCacheFolderInHome() {
    assertThat(CacheFolder.of(system(), Map.of())).isEqualTo(Path.of("/home/ada/.cache/crawler"));
  }
}
