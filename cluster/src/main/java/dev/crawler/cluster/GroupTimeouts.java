package dev.crawler.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group's session timeout and heartbeat interval (the group's {@code consumer.*} settings,
 * which fall back to the brokers' {@code group.consumer.*}), and how long a node may hear nothing
 * from the group before it pauses its fetching.
 */
record GroupTimeouts(Duration session, Duration heartbeatInterval) {
  private static final Logger log = LoggerFactory.getLogger(GroupTimeouts.class);
  /** Kafka's defaults, if the group's cannot be read. */
  static final GroupTimeouts KAFKA_DEFAULTS = new GroupTimeouts(Duration.ofSeconds(45), Duration.ofSeconds(5));
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration MARGIN = Duration.ofSeconds(1);

  /**
   * Half the session, so the node stops well before the group gives its partitions away; but
   * never within a heartbeat interval and a half (or one and a second), which an answer may
   * take in a healthy group; and never past the session less a second.
   */
  Duration pauseAfter() {
    Duration half = session.dividedBy(2);
    Duration slack = heartbeatInterval.dividedBy(2).compareTo(MARGIN) > 0 ? heartbeatInterval.dividedBy(2) : MARGIN;
    Duration pause = max(half, heartbeatInterval.plus(slack));
    Duration latest = session.minus(MARGIN);
    return pause.compareTo(latest) > 0 ? max(latest, Duration.ofMillis(1)) : pause;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** Reads the group's settings; Kafka's defaults, with a warning, if they cannot be read. */
  static GroupTimeouts read(Map<String, Object> clientConfig, String groupId) {
    ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, groupId);
    Admin admin = Admin.create(clientConfig);
    try {
      DescribeConfigsOptions options = new DescribeConfigsOptions().timeoutMs((int) READ_TIMEOUT.toMillis());
      Config config = admin.describeConfigs(List.of(group), options).all()
          .get(READ_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS).get(group);
      GroupTimeouts read = new GroupTimeouts(millis(config, "consumer.session.timeout.ms", KAFKA_DEFAULTS.session()),
          millis(config, "consumer.heartbeat.interval.ms", KAFKA_DEFAULTS.heartbeatInterval()));
      if (read.pauseAfter().compareTo(read.heartbeatInterval()) <= 0) {
        log.warn("The group's heartbeat interval ({} ms) leaves no room before its session timeout ({} ms): a node "
            + "may pause its fetching between two heartbeats. Set consumer.heartbeat.interval.ms well below it",
            read.heartbeatInterval().toMillis(), read.session().toMillis());
      }
      return read;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      log.warn("The group's session timeout could not be read ({}): a node pauses its fetching after {} s without "
          + "word from the group, as for Kafka's default; with a shorter session that may come too late",
          e.getMessage(), KAFKA_DEFAULTS.pauseAfter().toSeconds());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      admin.close(Duration.ofSeconds(1));
    }
    return KAFKA_DEFAULTS;
  }

  private static Duration millis(Config config, String name, Duration otherwise) {
    ConfigEntry entry = config == null ? null : config.get(name);
    if (entry == null || entry.value() == null) {
      return otherwise;
    }
    return Duration.ofMillis(Long.parseLong(entry.value().trim()));
  }
}
