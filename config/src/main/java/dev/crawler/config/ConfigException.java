package dev.crawler.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration that cannot be used. Its message lists every problem found, one a
 * line, each naming the file, the line, the key and what is allowed, so a user can
 * fix them all in one go.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final List<ConfigProblem> problems;

  public ConfigException(String source, List<ConfigProblem> problems) {
    super(problems.stream().map(p -> p.describe(source)).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("A ConfigException needs at least one problem");
    }
    this.source = source;
    this.problems = List.copyOf(problems);
  }

  /** The file (or "defaults") the problems were found in. */
  public String source() {
    return source;
  }

  public List<ConfigProblem> problems() {
    return problems;
  }
}
