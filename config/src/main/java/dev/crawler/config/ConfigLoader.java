package dev.crawler.config;

import static dev.crawler.config.internal.ConfigKeys.CRAWL_DATA_DIR;
import static dev.crawler.config.internal.ConfigKeys.CRAWL_SEEDS;

import dev.crawler.config.internal.ConfigKey;
import dev.crawler.config.internal.ConsistencyRules;
import dev.crawler.config.internal.Settings;
import dev.crawler.config.internal.SettingsBinder;
import dev.crawler.config.internal.YamlNode;
import dev.crawler.config.internal.YamlReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a YAML configuration file strictly: an unknown key, a value of the wrong type
 * or an impossible value stops the load with a {@link ConfigException} that lists
 * every problem with its line, key and allowed values.
 */
public final class ConfigLoader {
  private ConfigLoader() {}

  /**
   * Loads {@code file}. Relative paths in it are resolved against the file's folder,
   * so a config and its seeds file can travel together.
   */
  public static CrawlConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file.toString(), List.of(new ConfigProblem(0, "", "no such file")));
    } catch (CharacterCodingException e) {
      throw new ConfigException(file.toString(), List.of(new ConfigProblem(0, "", "is not UTF-8 text")));
    } catch (IOException e) {
      throw new ConfigException(file.toString(), List.of(new ConfigProblem(0, "", "cannot be read: " + e)));
    }
    Path folder = file.toAbsolutePath().getParent();
    return parse(text, file.toString(), folder);
  }

  /**
   * Parses YAML text. {@code source} names it in messages; relative paths are
   * resolved against {@code baseDir}.
   */
  public static CrawlConfig parse(String yaml, String source, Path baseDir) {
    List<ConfigProblem> problems = new ArrayList<>();
    YamlNode root = YamlReader.read(yaml, problems);
    if (root == null) {
      throw new ConfigException(source, problems);
    }
    Settings settings = SettingsBinder.bind(root, problems);
    if (problems.isEmpty()) {
      ConsistencyRules.check(settings, problems);
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(source, problems);
    }
    resolve(settings, CRAWL_SEEDS, baseDir);
    resolve(settings, CRAWL_DATA_DIR, baseDir);
    return new CrawlConfig(source, settings);
  }

  private static void resolve(Settings settings, ConfigKey<Path> key, Path baseDir) {
    settings.replace(key, baseDir.resolve(settings.get(key)).normalize());
  }
}
