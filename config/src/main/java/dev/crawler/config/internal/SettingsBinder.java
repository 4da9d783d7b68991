package dev.crawler.config.internal;

import dev.crawler.config.ConfigProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Binds a YAML tree to the known keys: every key is read through its type, every
 * unknown key or misplaced value becomes a problem naming its path and line. It goes
 * on after a problem, so one run reports them all.
 */
public final class SettingsBinder {
  private static final Map<String, ConfigKey<?>> KEYS_BY_PATH = new LinkedHashMap<>();
  /** Section path ("" for the root) to the names directly inside it, in order. */
  private static final Map<String, Set<String>> CHILDREN = new LinkedHashMap<>();

  static {
    for (ConfigKey<?> key : ConfigKeys.ALL) {
      KEYS_BY_PATH.put(key.path(), key);
      String path = key.path();
      int dot;
      String child = path;
      while ((dot = child.lastIndexOf('.')) >= 0) {
        CHILDREN.computeIfAbsent(child.substring(0, dot), s -> new LinkedHashSet<>()).add(child.substring(dot + 1));
        child = child.substring(0, dot);
      }
      CHILDREN.computeIfAbsent("", s -> new LinkedHashSet<>()).add(child);
    }
  }

  private final Settings settings = Settings.defaults();
  private final List<ConfigProblem> problems;

  private SettingsBinder(List<ConfigProblem> problems) {
    this.problems = problems;
  }

  /** Binds {@code root}; problems are added to {@code problems}. */
  public static Settings bind(YamlNode root, List<ConfigProblem> problems) {
    SettingsBinder binder = new SettingsBinder(problems);
    if (root instanceof YamlNode.Mapping mapping) {
      binder.bindSection("", mapping);
    } else if (!(root instanceof YamlNode.Scalar scalar && scalar.isNull())) {
      problems.add(new ConfigProblem(root.line(), "",
          "the file must be a mapping of sections (" + String.join(", ", CHILDREN.get("")) + "), not " + root.kind()));
    }
    return binder.settings;
  }

  private void bindSection(String section, YamlNode.Mapping mapping) {
    for (YamlNode.Entry entry : mapping.entries().values()) {
      String path = section.isEmpty() ? entry.key() : section + "." + entry.key();
      if (entry.key().indexOf('.') >= 0) {
        // "fetch.workers: 16" beside "fetch: {workers: 8}" would name the same setting twice,
        // past the duplicate-key check, and the last one would win unseen.
        problems.add(new ConfigProblem(entry.keyLine(), path, "a key is one name, without '.': write it nested, "
            + "as in " + nestedExample(entry.key())));
        continue;
      }
      ConfigKey<?> key = KEYS_BY_PATH.get(path);
      if (key != null) {
        bindKey(key, entry);
      } else if (CHILDREN.containsKey(path)) {
        if (entry.value() instanceof YamlNode.Mapping inner) {
          bindSection(path, inner);
        } else if (!(entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
          problems.add(new ConfigProblem(entry.keyLine(), path, "expected a section with the keys "
              + String.join(", ", CHILDREN.get(path)) + ", got " + entry.value().kind()));
        }
      } else {
        problems.add(new ConfigProblem(entry.keyLine(), path, unknownKeyMessage(section, entry.key())));
      }
    }
  }

  private <T> void bindKey(ConfigKey<T> key, YamlNode.Entry entry) {
    try {
      settings.set(key, key.type().read(entry.value()), entry.keyLine());
    } catch (ValueType.BadValue e) {
      String message = e.getMessage();
      if (!message.contains("allowed:")) {
        message += "; allowed: " + key.type().allowed();
      }
      problems.add(new ConfigProblem(entry.keyLine(), key.path(), message));
    }
  }

  private static String unknownKeyMessage(String section, String written) {
    List<String> siblings = List.copyOf(CHILDREN.get(section));
    Optional<String> sibling = KeySuggestions.closest(written, siblings);
    if (sibling.isPresent()) {
      String suggestion = section.isEmpty() ? sibling.get() : section + "." + sibling.get();
      return "unknown key; did you mean " + suggestion + "?";
    }
    // A key put in the wrong section: look for its name anywhere.
    List<String> elsewhere = new ArrayList<>();
    for (String path : KEYS_BY_PATH.keySet()) {
      String name = path.substring(path.lastIndexOf('.') + 1);
      if (KeySuggestions.closest(written, List.of(name)).isPresent()) {
        elsewhere.add(path);
      }
    }
    for (String path : CHILDREN.keySet()) {
      String name = path.substring(path.lastIndexOf('.') + 1);
      if (!path.isEmpty() && KeySuggestions.closest(written, List.of(name)).isPresent()) {
        elsewhere.add(path);
      }
    }
    if (!elsewhere.isEmpty()) {
      return "unknown key; did you mean " + String.join(" or ", elsewhere) + "?";
    }
    return "unknown key; allowed " + (section.isEmpty() ? "at the top" : "in " + section) + ": "
        + String.join(", ", siblings);
  }

  /** "fetch.workers" as the nested YAML it means: "fetch: {workers: ...}". */
  private static String nestedExample(String dottedKey) {
    String[] parts = dottedKey.split("\\.", -1);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < parts.length - 1; i++) {
      out.append(parts[i]).append(": {");
    }
    out.append(parts[parts.length - 1]).append(": ...");
    out.append("}".repeat(parts.length - 1));
    return out.toString();
  }
}
