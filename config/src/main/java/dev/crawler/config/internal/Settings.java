package dev.crawler.config.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * The value of every key (the default where the file is silent) and the line where
 * each key the file does set is written, so later checks can point at it.
 */
public final class Settings {
  private final Map<ConfigKey<?>, Object> values = new HashMap<>();
  private final Map<ConfigKey<?>, Integer> lines = new HashMap<>();

  /** All defaults. */
  public static Settings defaults() {
    return new Settings();
  }

  <T> void set(ConfigKey<T> key, T value, int line) {
    values.put(key, value);
    lines.put(key, line);
  }

  /** Replaces a value without a line: a value that came from elsewhere, such as a resolved path. */
  public <T> void replace(ConfigKey<T> key, T value) {
    values.put(key, value);
  }

  @SuppressWarnings("unchecked")
  public <T> T get(ConfigKey<T> key) {
    return values.containsKey(key) ? (T) values.get(key) : key.defaultValue();
  }

  /** True when the file sets the key (even to its default value). */
  public boolean isSet(ConfigKey<?> key) {
    return lines.containsKey(key);
  }

  /** The line where the file sets the key, or 0 when it does not. */
  public int line(ConfigKey<?> key) {
    return lines.getOrDefault(key, 0);
  }
}
