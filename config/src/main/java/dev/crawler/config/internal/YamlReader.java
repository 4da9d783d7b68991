package dev.crawler.config.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.crawler.config.ConfigProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML text into a {@link YamlNode} tree with Jackson's streaming YAML parser,
 * which reports the location of each token. Duplicate keys, which YAML parsers
 * usually resolve silently in favour of the last one, are reported as problems.
 */
public final class YamlReader {
  private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

  private final List<ConfigProblem> problems;

  private YamlReader(List<ConfigProblem> problems) {
    this.problems = problems;
  }

  /**
   * Parses {@code text}. An empty document is an empty mapping. A syntax error is
   * added to {@code problems} and yields null.
   */
  public static YamlNode read(String text, List<ConfigProblem> problems) {
    YamlReader reader = new YamlReader(problems);
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return new YamlNode.Mapping(1, Map.of());
      }
      YamlNode root = reader.readValue(parser, first, "");
      if (parser.nextToken() != null) {
        problems.add(new ConfigProblem(line(parser.currentTokenLocation()), "",
            "a second YAML document starts here; the configuration is one document"));
        return null;
      }
      return root;
    } catch (JsonProcessingException e) {
      problems.add(syntaxError(e));
      return null;
    } catch (IOException e) {
      // Reading from a String: only the parser's own errors end up here.
      problems.add(new ConfigProblem(0, "", "YAML could not be read: " + e.getMessage()));
      return null;
    }
  }

  private YamlNode readValue(JsonParser parser, JsonToken token, String path) throws IOException {
    int line = line(parser.currentTokenLocation());
    switch (token) {
      case START_OBJECT: {
        Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
          String key = parser.currentName();
          int keyLine = line(parser.currentTokenLocation());
          String keyPath = path.isEmpty() ? key : path + "." + key;
          YamlNode value = readValue(parser, parser.nextToken(), keyPath);
          YamlNode.Entry previous = entries.get(key);
          if (previous != null) {
            problems.add(new ConfigProblem(keyLine, keyPath,
                "duplicate key; it is already set on line " + previous.keyLine()));
          } else {
            entries.put(key, new YamlNode.Entry(key, keyLine, value));
          }
        }
        return new YamlNode.Mapping(line, entries);
      }
      case START_ARRAY: {
        List<YamlNode> items = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
          items.add(readValue(parser, t, path));
        }
        return new YamlNode.Sequence(line, items);
      }
      case VALUE_NULL:
        return new YamlNode.Scalar(line, null);
      default:
        if (parser instanceof com.fasterxml.jackson.dataformat.yaml.YAMLParser yaml && yaml.isCurrentAlias()) {
          // Jackson hands an alias (*name) over as its name, so "[*_ref]" became "_ref" unseen.
          problems.add(new ConfigProblem(line, path, "YAML aliases (*" + parser.getText()
              + ") are not supported; quote the value if it starts with '*'"));
        }
        return new YamlNode.Scalar(line, parser.getText());
    }
  }

  private static int line(JsonLocation location) {
    return location == null ? 0 : location.getLineNr();
  }

  /**
   * SnakeYAML's problem and the line it is on: its message's first line is only the context
   * ("while parsing a flow sequence", at the line the sequence opened), not what is wrong.
   */
  private static ConfigProblem syntaxError(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblem() != null) {
      String context = marked.getContext() == null ? "" : marked.getContext().strip() + ": ";
      int line = marked.getProblemMark() == null ? line(e.getLocation()) : marked.getProblemMark().getLine() + 1;
      return new ConfigProblem(line, "", "YAML syntax error: " + context + marked.getProblem().strip());
    }
    return new ConfigProblem(line(e.getLocation()), "", "YAML syntax error: " + firstLine(e.getOriginalMessage()));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable document";
    }
    String trimmed = message.strip();
    int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline).strip();
  }
}
