package dev.crawler.config.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes settings back as YAML, one key a line in the order of {@link ConfigKeys#ALL},
 * nested by section. With documentation on, each section and key gets its comment and
 * allowed values (the defaults file); otherwise a key that differs from its default is
 * marked with the default (the effective configuration).
 */
public final class ConfigWriter {
  private ConfigWriter() {}

  public static String write(Settings settings, boolean documented) {
    StringBuilder out = new StringBuilder();
    List<String> open = new ArrayList<>();   // the sections currently open, outermost first
    java.util.Set<ConfigKey<?>> unused = ConsistencyRules.unusedKeys(settings);
    for (ConfigKey<?> key : ConfigKeys.ALL) {
      List<String> sections = key.section().isEmpty() ? List.of() : List.of(key.section().split("\\."));
      int common = 0;
      while (common < open.size() && common < sections.size() && open.get(common).equals(sections.get(common))) {
        common++;
      }
      while (open.size() > common) {
        open.remove(open.size() - 1);
      }
      for (int depth = common; depth < sections.size(); depth++) {
        String path = String.join(".", sections.subList(0, depth + 1));
        if (depth == 0 && out.length() > 0) {
          out.append('\n');
        }
        if (documented && ConfigKeys.SECTIONS.containsKey(path)) {
          indent(out, depth).append("# ").append(ConfigKeys.SECTIONS.get(path)).append('\n');
        }
        indent(out, depth).append(sections.get(depth)).append(":\n");
        open.add(sections.get(depth));
      }
      writeKey(out, settings, key, sections.size(), documented, unused.contains(key));
    }
    return out.toString();
  }

  private static <T> void writeKey(StringBuilder out, Settings settings, ConfigKey<T> key, int depth,
      boolean documented, boolean unused) {
    T value = settings.get(key);
    if (documented) {
      indent(out, depth).append("# ").append(key.description()).append('\n');
      indent(out, depth).append("#   allowed: ").append(key.type().allowed()).append('\n');
    }
    indent(out, depth).append(unused ? "# " : "").append(key.name()).append(": ").append(key.type().format(value));
    if (unused) {
      out.append("   # not used: another key decides it");
    } else if (!documented && !value.equals(key.defaultValue())) {
      out.append("   # default: ").append(key.type().format(key.defaultValue()));
    }
    out.append('\n');
  }

  private static StringBuilder indent(StringBuilder out, int depth) {
    return out.append("  ".repeat(depth));
  }
}
