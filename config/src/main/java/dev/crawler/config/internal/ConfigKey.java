package dev.crawler.config.internal;

import java.util.List;
import java.util.Objects;

/**
 * One configuration key: its dotted path, its type, its default and its documentation.
 * The default is written as YAML (text, or a list of texts) and read through the type
 * once, when the constant is created, so the documented default and the effective
 * one cannot drift apart.
 */
public final class ConfigKey<T> {
  private final String path;
  private final ValueType<T> type;
  private final T defaultValue;
  private final String description;

  private ConfigKey(String path, ValueType<T> type, YamlNode defaultNode, String description) {
    this.path = Objects.requireNonNull(path);
    this.type = Objects.requireNonNull(type);
    this.description = Objects.requireNonNull(description);
    try {
      this.defaultValue = type.read(defaultNode);
    } catch (ValueType.BadValue e) {
      throw new IllegalStateException("Default of " + path + " is invalid: " + e.getMessage(), e);
    }
  }

  /** A key whose default is one scalar, written as in YAML. */
  static <T> ConfigKey<T> of(String path, ValueType<T> type, String defaultText, String description) {
    return new ConfigKey<>(path, type, new YamlNode.Scalar(0, defaultText), description);
  }

  /** A key whose default is a list of scalars. */
  static <T> ConfigKey<T> ofList(String path, ValueType<T> type, List<String> defaultItems, String description) {
    List<YamlNode> items = defaultItems.stream().<YamlNode>map(text -> new YamlNode.Scalar(0, text)).toList();
    return new ConfigKey<>(path, type, new YamlNode.Sequence(0, items), description);
  }

  public String path() {
    return path;
  }

  public ValueType<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /** The last segment of the path: {@code default-delay} of {@code politeness.default-delay}. */
  public String name() {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  /** The path of the enclosing section: {@code politeness} of {@code politeness.default-delay}. */
  public String section() {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? "" : path.substring(0, dot);
  }

  @Override
  public String toString() {
    return path;
  }
}
