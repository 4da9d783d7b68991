package dev.crawler.config.internal;

import static dev.crawler.config.internal.ConfigKeys.CLUSTER_BOOTSTRAP_SERVERS;
import static dev.crawler.config.internal.ConfigKeys.CLUSTER_NAME;
import static dev.crawler.config.internal.ConfigKeys.CLUSTER_NODE_ID;
import static dev.crawler.config.internal.ConfigKeys.CLUSTER_PARTITIONS;
import static dev.crawler.config.internal.ConfigKeys.FETCH_CONNECT_TIMEOUT;
import static dev.crawler.config.internal.ConfigKeys.FETCH_MAX_CONNECTIONS;
import static dev.crawler.config.internal.ConfigKeys.FETCH_READ_TIMEOUT;
import static dev.crawler.config.internal.ConfigKeys.FRONTIER_PARTITIONS;
import static dev.crawler.config.internal.ConfigKeys.FETCH_TOTAL_TIMEOUT;
import static dev.crawler.config.internal.ConfigKeys.POLITENESS_BACKOFF_INITIAL;
import static dev.crawler.config.internal.ConfigKeys.POLITENESS_BACKOFF_MAX;
import static dev.crawler.config.internal.ConfigKeys.POLITENESS_CONNECTIONS_PER_HOST;
import static dev.crawler.config.internal.ConfigKeys.SEEN_FALSE_POSITIVE_RATE;
import static dev.crawler.config.internal.ConfigKeys.SEEN_MEMORY_BUDGET;

import dev.crawler.config.ConfigProblem;
import java.time.Duration;
import java.util.List;

/**
 * Rules that join two keys, each valid alone. The problem is reported on the line of
 * whichever of the two the file sets (the second if it sets both), since that is the
 * one the user just wrote.
 */
public final class ConsistencyRules {
  private ConsistencyRules() {}

  /** Keys whose value has no effect under the others: the effective configuration shows them as comments. */
  public static java.util.Set<ConfigKey<?>> unusedKeys(Settings s) {
    java.util.Set<ConfigKey<?>> unused = new java.util.LinkedHashSet<>();
    if (s.get(SEEN_MEMORY_BUDGET).isPresent()) {
      unused.add(SEEN_FALSE_POSITIVE_RATE);
    }
    if (s.get(CLUSTER_BOOTSTRAP_SERVERS).isEmpty()) {
      unused.addAll(List.of(CLUSTER_NAME, CLUSTER_PARTITIONS, CLUSTER_NODE_ID));
    } else {
      unused.add(FRONTIER_PARTITIONS);   // cluster.partitions splits the frontier
    }
    return java.util.Set.copyOf(unused);
  }

  public static void check(Settings s, List<ConfigProblem> problems) {
    if (s.isSet(SEEN_MEMORY_BUDGET) && s.get(SEEN_MEMORY_BUDGET).isPresent() && s.isSet(SEEN_FALSE_POSITIVE_RATE)) {
      problems.add(new ConfigProblem(s.line(SEEN_MEMORY_BUDGET), SEEN_MEMORY_BUDGET.path(),
          "is set together with " + SEEN_FALSE_POSITIVE_RATE.path() + " (line " + s.line(SEEN_FALSE_POSITIVE_RATE)
              + "); set one: the budget gives the rate, or the rate gives the memory"));
    }
    cluster(s, problems);
    notLonger(s, FETCH_CONNECT_TIMEOUT, FETCH_TOTAL_TIMEOUT, problems);
    notLonger(s, FETCH_READ_TIMEOUT, FETCH_TOTAL_TIMEOUT, problems);
    notLonger(s, POLITENESS_BACKOFF_INITIAL, POLITENESS_BACKOFF_MAX, problems);
    if (s.get(POLITENESS_CONNECTIONS_PER_HOST) > s.get(FETCH_MAX_CONNECTIONS)) {
      problems.add(problem(s, POLITENESS_CONNECTIONS_PER_HOST, FETCH_MAX_CONNECTIONS, "("
          + s.get(POLITENESS_CONNECTIONS_PER_HOST) + ") is above " + FETCH_MAX_CONNECTIONS.path() + " ("
          + s.get(FETCH_MAX_CONNECTIONS) + "); allowed: at most " + FETCH_MAX_CONNECTIONS.path()));
    }
  }

  /** A cluster needs its name; its partitions are the frontier's, so a frontier.partitions apart is refused. */
  private static void cluster(Settings s, List<ConfigProblem> problems) {
    if (s.get(CLUSTER_BOOTSTRAP_SERVERS).isEmpty()) {
      return;
    }
    if (s.get(CLUSTER_NAME).isEmpty()) {
      problems.add(new ConfigProblem(s.line(CLUSTER_BOOTSTRAP_SERVERS), CLUSTER_NAME.path(),
          "is required with " + CLUSTER_BOOTSTRAP_SERVERS.path() + ": it names the crawl's topics and consumer group"));
    }
    if (s.isSet(FRONTIER_PARTITIONS) && !s.get(FRONTIER_PARTITIONS).equals(s.get(CLUSTER_PARTITIONS))) {
      problems.add(problem(s, FRONTIER_PARTITIONS, CLUSTER_PARTITIONS, "(" + s.get(FRONTIER_PARTITIONS)
          + ") differs from " + CLUSTER_PARTITIONS.path() + " (" + s.get(CLUSTER_PARTITIONS) + "); in a cluster the "
          + "frontier is split by the cluster's partitions: remove " + FRONTIER_PARTITIONS.path()));
    }
  }

  private static void notLonger(Settings s, ConfigKey<Duration> shorter, ConfigKey<Duration> longer,
      List<ConfigProblem> problems) {
    Duration a = s.get(shorter);
    Duration b = s.get(longer);
    if (a.compareTo(b) > 0) {
      String format = shorter.type().format(a);
      problems.add(problem(s, shorter, longer, "(" + format + ") is longer than " + longer.path() + " ("
          + longer.type().format(b) + "); allowed: at most " + longer.path()));
    }
  }

  /** A problem stated about {@code subject}, placed on the line of whichever key the file set last. */
  private static ConfigProblem problem(Settings s, ConfigKey<?> subject, ConfigKey<?> other, String message) {
    int line = Math.max(s.line(subject), s.line(other));
    return new ConfigProblem(line, subject.path(), message);
  }
}
