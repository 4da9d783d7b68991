package dev.crawler.config;

/**
 * One thing wrong with a configuration file.
 *
 * @param line 1-based line in the file, or 0 when the problem has no single line
 *     (a required key that is absent)
 * @param path the key's dotted path, such as {@code politeness.default-delay}
 * @param message what is wrong and what is allowed
 */
public record ConfigProblem(int line, String path, String message) {

  /** The problem as one line: {@code crawl.yaml:7: politeness.default-delay: ...}. */
  public String describe(String source) {
    StringBuilder text = new StringBuilder(source);
    if (line > 0) {
      text.append(':').append(line);
    }
    text.append(": ");
    if (!path.isEmpty()) {
      text.append(path).append(": ");
    }
    return text.append(message).toString();
  }
}
