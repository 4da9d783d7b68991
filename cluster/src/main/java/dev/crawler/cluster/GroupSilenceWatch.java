package dev.crawler.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses a node's fetching while its consumer hears nothing from the group's coordinator for half
 * the group's session timeout, and resumes it at the next answer. The group gives a silent
 * member's partitions away once the whole session timeout has passed, and the member learns of it
 * only when it is heard again: without this pause a node cut off from the brokers would go on
 * fetching hosts that another node fetches too.
 *
 * <p>Reads the consumer's own {@code heartbeat-total} metric (heartbeats answered) on a thread of
 * its own every {@link #LOOK_EVERY}, so a long rebalance callback on the consumer's thread does
 * not hide a silence.
 */
final class GroupSilenceWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupSilenceWatch.class);
  static final Duration LOOK_EVERY = Duration.ofMillis(100);
  /** Kafka's default {@code group.consumer.session.timeout.ms}, if the group's cannot be read. */
  static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(45);
  private static final String ANSWERED_METRIC = "heartbeat-total";
  private static final String METRIC_GROUP = "consumer-coordinator-metrics";

  private final Metric answered;
  private final GroupSilence silence;
  private final Consumer<Boolean> silent;
  private final Thread thread;
  private volatile boolean closed;

  private GroupSilenceWatch(Metric answered, Duration pauseAfter, Consumer<Boolean> silent) {
    this.answered = answered;
    this.silence = new GroupSilence(pauseAfter, System.nanoTime());
    this.silent = silent;
    this.thread = Thread.ofPlatform().daemon().name("group-silence-watch").unstarted(this::watch);
  }

  /**
   * Starts watching {@code consumer}; empty (with a warning) if its client has no heartbeat count.
   *
   * @param silent told {@code true} when fetching should pause, {@code false} when it may go on
   */
  static Optional<GroupSilenceWatch> start(KafkaConsumer<?, ?> consumer, Duration pauseAfter, Consumer<Boolean> silent) {
    Optional<? extends Metric> metric = consumer.metrics().entrySet().stream()
        .filter(e -> e.getKey().name().equals(ANSWERED_METRIC) && e.getKey().group().equals(METRIC_GROUP))
        .map(Map.Entry::getValue).findFirst();
    if (metric.isEmpty()) {
      log.warn("This Kafka client has no {} metric: the node will not pause by itself when it cannot reach the "
          + "group, so a network split may let two nodes fetch one host until it ends", ANSWERED_METRIC);
      return Optional.empty();
    }
    GroupSilenceWatch watch = new GroupSilenceWatch(metric.get(), pauseAfter, silent);
    watch.thread.start();
    return Optional.of(watch);
  }

  /**
   * Half the group's session timeout ({@code consumer.session.timeout.ms} of the group, which
   * falls back to the brokers' {@code group.consumer.session.timeout.ms}), or half of Kafka's
   * default if it cannot be read.
   */
  static Duration pauseAfter(Map<String, Object> clientConfig, String groupId) {
    ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, groupId);
    try (Admin admin = Admin.create(clientConfig)) {
      Config config = admin.describeConfigs(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
      ConfigEntry entry = config == null ? null : config.get("consumer.session.timeout.ms");
      if (entry != null && entry.value() != null) {
        return Duration.ofMillis(Long.parseLong(entry.value())).dividedBy(2);
      }
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      log.info("The group's session timeout could not be read ({}): a node pauses after {} without word from it",
          e.toString(), DEFAULT_SESSION_TIMEOUT.dividedBy(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return DEFAULT_SESSION_TIMEOUT.dividedBy(2);
  }

  private void watch() {
    while (!closed) {
      long now = System.nanoTime();
      GroupSilence.Change change = silence.observe(((Number) answered.metricValue()).doubleValue(), now);
      if (change == GroupSilence.Change.PAUSE) {
        log.warn("No word from the group's coordinator for {} s: this node stops starting fetches, since the group "
            + "may give its partitions to another node soon. It goes on when the coordinator answers; if this "
            + "lasts, check the network between this node and the brokers", silence.silence(now).toSeconds());
        silent.accept(true);
      } else if (change == GroupSilence.Change.RESUME) {
        log.info("The group's coordinator answers again: this node fetches again");
        silent.accept(false);
      }
      try {
        Thread.sleep(LOOK_EVERY);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.interrupt();
    thread.join();
  }
}
