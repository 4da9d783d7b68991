package dev.crawler.config.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a small tree that remembers the line of every node, so that
 * every configuration error can name the line it comes from. Jackson's own tree
 * ({@code JsonNode}) forgets locations, which is why the config reads YAML into this.
 */
public sealed interface YamlNode {

  /** 1-based line of the node's first character. */
  int line();

  /** A short name of the node's kind for error messages: "a mapping", "a list", ... */
  String kind();

  /** A mapping; entries keep their order in the file. */
  record Mapping(int line, Map<String, Entry> entries) implements YamlNode {
    public Mapping {
      entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    @Override
    public String kind() {
      return "a mapping";
    }
  }

  /** One key of a mapping, with the line of the key itself. */
  record Entry(String key, int keyLine, YamlNode value) {}

  /** A sequence. */
  record Sequence(int line, List<YamlNode> items) implements YamlNode {
    public Sequence {
      items = List.copyOf(items);
    }

    @Override
    public String kind() {
      return "a list";
    }
  }

  /** A scalar as written in the file; {@code text} is null for YAML null ({@code ~} or nothing). */
  record Scalar(int line, String text) implements YamlNode {
    public boolean isNull() {
      return text == null;
    }

    @Override
    public String kind() {
      return isNull() ? "no value" : "the value \"" + text + "\"";
    }
  }
}
