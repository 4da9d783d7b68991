package dev.crawler.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.config.internal.ConfigKey;
import dev.crawler.config.internal.ConfigKeys;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class ConfigDefaultsTest {
  private static final Path BASE = Path.of("/crawls/example");

  @ParameterizedTest(name = "{0} defaults to {1}")
  @CsvFileSource(resources = "defaults.csv", delimiter = '|', quoteCharacter = '`', numLinesToSkip = 1)
  void everyKeyHasTheDocumentedDefault(String path, String expected) {
    ConfigKey<?> key = key(path);
    assertThat(format(key)).isEqualTo(expected);
  }

  @Test
  void theDefaultsTableCoversEveryKey() throws Exception {
    Set<String> inTable = new HashSet<>();
    try (var lines = java.nio.file.Files.lines(Path.of(getClass().getResource("defaults.csv").toURI()))) {
      lines.skip(1).filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> inTable.add(l.split("\\|")[0]));
    }
    assertThat(inTable).containsExactlyInAnyOrderElementsOf(ConfigKeys.ALL.stream().map(ConfigKey::path).toList());
  }

  @Test
  void theDefaultsFileLoadsBackToTheDefaults() {
    CrawlConfig fromDefaultsFile = ConfigLoader.parse(ConfigDocs.defaultsYaml(), "defaults.yaml", BASE);
    CrawlConfig fromEmptyFile = ConfigLoader.parse("", "empty.yaml", BASE);
    assertThat(fromDefaultsFile).isEqualTo(fromEmptyFile);
    // Only the paths differ from their defaults: they are resolved against the file's folder.
    assertThat(fromEmptyFile.toYaml().lines().filter(l -> l.contains("# default:")))
        .containsExactly("  seeds: /crawls/example/seeds.txt   # default: seeds.txt",
            "  data-dir: /crawls/example/crawl-data   # default: crawl-data");
  }

  @Test
  void theDefaultsFileDocumentsEveryKeyAndSection() {
    String yaml = ConfigDocs.defaultsYaml();
    for (ConfigKey<?> key : ConfigKeys.ALL) {
      assertThat(yaml).contains("# " + key.description() + "\n");
      assertThat(yaml).contains("#   allowed: " + key.type().allowed() + "\n");
    }
    ConfigKeys.SECTIONS.values().forEach(doc -> assertThat(yaml).contains("# " + doc + "\n"));
  }

  @Test
  void everySectionOfTheKeysIsDocumented() {
    for (ConfigKey<?> key : ConfigKeys.ALL) {
      assertThat(ConfigKeys.SECTIONS).containsKey(key.section());
    }
  }

  @Test
  void theEffectiveConfigurationLoadsBackToItself() {
    CrawlConfig config = ConfigLoader.parse("""
        fetch:
          workers: 64
          timeouts: {read: 5s}
        scope:
          mode: any
          exclude: ['\\.pdf$', "/private/"]
        seen:
          memory-budget: 2GB
          false-positive-policy: accept
        normalize:
          strip-parameters: ['*_ref', utm_*]
        """, "crawl.yaml", BASE);
    String yaml = config.toYaml();
    assertThat(yaml).as("a value starting with '*' is quoted, or it would read back as an alias")
        .contains("\"*_ref\"");
    assertThat(yaml).contains("  workers: 64   # default: 32\n");
    assertThat(yaml).contains("  memory-budget: 2GB   # default: none\n");
    assertThat(yaml).contains("  # false-positive-rate: 1%   # not used: another key decides it\n");
    assertThat(ConfigLoader.parse(yaml, "effective.yaml", Path.of("/elsewhere"))).isEqualTo(config);
  }

  @Test
  void relativePathsAreResolvedAgainstTheConfigFilesFolder() {
    CrawlConfig config = ConfigLoader.parse("crawl: {seeds: lists/seeds.txt, data-dir: /var/crawl}", "c.yaml", BASE);
    assertThat(config.crawl().seeds()).isEqualTo(Path.of("/crawls/example/lists/seeds.txt"));
    assertThat(config.crawl().dataDir()).isEqualTo(Path.of("/var/crawl"));
  }

  @Test
  void typedValuesAreReadAsPeopleWriteThem() {
    CrawlConfig config = ConfigLoader.parse("""
        politeness: {default-delay: 500ms, max-crawl-delay: 1.5m}
        fetch: {max-content-bytes: 0.75GB, workers: '1,000'}
        seen: {expected-urls: 5e9, false-positive-rate: 0.1%, recent-memory: 128MB, store-cache: 0.5GB}
        crawl: {limits: {max-pages: 1_000_000, max-duration: 12h}}
        """, "c.yaml", BASE);
    assertThat(config.politeness().defaultDelay()).hasMillis(500);
    assertThat(config.politeness().maxCrawlDelay()).hasSeconds(90);
    assertThat(config.fetch().maxContentBytes().bytes()).isEqualTo(768L << 20);
    assertThat(config.fetch().workers()).isEqualTo(1_000);
    assertThat(config.seen().expectedUrls()).isEqualTo(5_000_000_000L);
    assertThat(config.seen().falsePositiveRate()).isEqualTo(0.001);
    assertThat(config.seen().recentMemory().bytes()).isEqualTo(128L << 20);
    assertThat(config.seen().storeCache().bytes()).isEqualTo(512L << 20);
    assertThat(config.crawl().limits().maxPages()).hasValue(1_000_000);
    assertThat(config.crawl().limits().maxPagesPerHost()).isEmpty();
    assertThat(config.crawl().limits().maxDuration()).hasValue(java.time.Duration.ofHours(12));
  }

  @Test
  void theStatusServerListensWhereTheFileSaysOrNowhere() {
    assertThat(ConfigLoader.parse("status: {listen: off}", "c.yaml", BASE).status().listen()).isEmpty();
    assertThat(ConfigLoader.parse("status: {listen: 'off'}", "c.yaml", BASE).status().listen()).isEmpty();
    assertThat(ConfigLoader.parse("status: {listen: '0.0.0.0:8080'}", "c.yaml", BASE).status().listen())
        .hasValue(new ListenAddress("0.0.0.0", 8080));
    CrawlConfig v6 = ConfigLoader.parse("status: {listen: '[::1]:0'}", "c.yaml", BASE);
    assertThat(v6.status().listen()).hasValue(new ListenAddress("::1", 0));
    assertThat(v6.toYaml()).contains("  listen: \"[::1]:0\"   # default: \"127.0.0.1:9477\"\n");
    assertThat(ConfigLoader.parse(v6.toYaml(), "effective.yaml", BASE)).isEqualTo(v6);
  }

  @Test
  void aClusterIsOnWithItsBrokersAndOffWithout() {
    assertThat(CrawlConfig.defaults().cluster().enabled()).isFalse();
    CrawlConfig config = ConfigLoader.parse("""
        cluster:
          bootstrap-servers: ["kafka1:9092", "[::1]:9093"]
          name: docs.2026
          partitions: 256
        """, "c.yaml", BASE);
    assertThat(config.cluster()).isEqualTo(new CrawlConfig.Cluster(List.of("kafka1:9092", "[::1]:9093"), "docs.2026",
        256, Optional.empty()));
    assertThat(config.cluster().enabled()).isTrue();
    assertThat(config.frontier().partitions()).isEqualTo(256);
    assertThat(ConfigLoader.parse(config.toYaml(), "effective.yaml", BASE)).isEqualTo(config);
    assertThat(ConfigLoader.parse("cluster: {bootstrap-servers: ['k:1'], name: a, node-id: n-1}", "c.yaml", BASE)
        .cluster().nodeId()).hasValue("n-1");
    // Off, the other keys do nothing: the effective configuration shows them as comments.
    assertThat(ConfigLoader.parse("cluster: {name: docs}", "c.yaml", BASE).toYaml()).contains("# name: docs");
  }

  @Test
  void theUserAgentHeaderNamesTheContact() {
    CrawlConfig config = ConfigLoader.parse(
        "crawl: {user-agent: {name: examplebot, contact-url: 'https://example.org/bot'}}", "c.yaml", BASE);
    config.requireReadyToCrawl();
    assertThat(config.crawl().userAgent().header("1.0")).isEqualTo("examplebot/1.0 (+https://example.org/bot)");
    CrawlConfig versioned = ConfigLoader.parse(
        "crawl: {user-agent: {name: newcomer-bot/1.0, contact-url: 'https://example.org/bot'}}", "c.yaml", BASE);
    assertThat(versioned.crawl().userAgent().name()).as("the robots.txt token").isEqualTo("newcomer-bot");
    assertThat(versioned.crawl().userAgent().header("0.1.0")).isEqualTo("newcomer-bot/1.0 (+https://example.org/bot)");
  }

  private static ConfigKey<?> key(String path) {
    return ConfigKeys.ALL.stream().filter(k -> k.path().equals(path)).findFirst()
        .orElseThrow(() -> new AssertionError("no key " + path));
  }

  private static <T> String format(ConfigKey<T> key) {
    return key.type().format(key.defaultValue());
  }
}
