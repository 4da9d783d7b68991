package dev.crawler.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses a node's fetching while its consumer hears nothing from the group's coordinator for
 * {@link GroupTimeouts#pauseAfter} (half the session), and lets it go on after the next answer.
 * The group gives a silent member's partitions away once the whole session timeout has passed,
 * and the member learns of it only when it is heard again: without this pause a node cut off
 * from the brokers would go on fetching hosts that another node fetches too.
 *
 * <p>Reads the consumer's own {@code heartbeat-total} metric (heartbeats answered, errors too) on
 * a thread of its own every {@link #LOOK_EVERY}, so a long rebalance callback on the consumer's
 * thread does not hide a silence. The pause ends on the consumer's thread, after a poll that
 * began once the answer had come ({@link #resumeIfHeard}): an answer that says the node was
 * fenced runs its lost partitions' callback in that poll, so they stop before fetching resumes.
 */
final class GroupSilenceWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupSilenceWatch.class);
  static final Duration LOOK_EVERY = Duration.ofMillis(100);
  private static final String ANSWERED_METRIC = "heartbeat-total";
  private static final String METRIC_GROUP = "consumer-coordinator-metrics";

  private final Metric answers;
  private final GroupSilence silence;
  private final PartitionOwner owner;
  private final Thread thread;
  /** Whether an answer came during the pause, and when: the consumer's thread resumes after it. */
  private boolean answered;
  private long answeredAt;
  private boolean paused;
  private volatile boolean closed;

  private GroupSilenceWatch(Metric answers, Duration pauseAfter, PartitionOwner owner) {
    this.answers = answers;
    this.silence = new GroupSilence(pauseAfter, System.nanoTime());
    this.owner = owner;
    this.thread = Thread.ofPlatform().daemon().name("group-silence-watch").unstarted(this::watch);
  }

  /** Starts watching {@code consumer}; empty (with a warning) if its client has no usable heartbeat count. */
  static Optional<GroupSilenceWatch> start(KafkaConsumer<?, ?> consumer, Duration pauseAfter, PartitionOwner owner) {
    Optional<? extends Metric> metric = consumer.metrics().entrySet().stream()
        .filter(e -> e.getKey().name().equals(ANSWERED_METRIC) && e.getKey().group().equals(METRIC_GROUP))
        .map(Map.Entry::getValue).findFirst();
    if (metric.isEmpty() || count(metric.get()) < 0) {
      log.warn("This Kafka client has no {} metric: the node will not pause by itself when it cannot reach the "
          + "group, so a network split may let two nodes fetch one host until it ends", ANSWERED_METRIC);
      return Optional.empty();
    }
    GroupSilenceWatch watch = new GroupSilenceWatch(metric.get(), pauseAfter, owner);
    watch.thread.start();
    return Optional.of(watch);
  }

  /** The answered heartbeats so far; -1 if the metric gives no count. */
  private static double count(Metric metric) {
    Object value = metric.metricValue();
    if (value instanceof Number n && Double.isFinite(n.doubleValue())) {
      return n.doubleValue();
    }
    return -1;
  }

  /**
   * On the consumer's thread after each poll: ends a pause whose answer came before that poll
   * began, so the poll has run whatever that answer set off (a fenced member's lost partitions).
   */
  synchronized void resumeIfHeard(long pollStartedNanos) {
    if (paused && answered && answeredAt - pollStartedNanos <= 0) {
      paused = false;
      answered = false;
      log.info("The group's coordinator answers again: this node fetches again");
      owner.groupSilent(false);
    }
  }

  /** Whether fetching is paused now: the group has not been heard for long enough. */
  synchronized boolean paused() {
    return paused;
  }

  private void watch() {
    while (!closed) {
      try {
        look();
      } catch (RuntimeException e) {
        log.error("The watch on the group's heartbeats failed ({}); it looks again", e.toString());
      }
      try {
        Thread.sleep(LOOK_EVERY);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void look() {
    long now = System.nanoTime();
    double count = count(answers);
    if (count < 0) {
      return;
    }
    GroupSilence.Change change = silence.observe(count, now);
    if (change == GroupSilence.Change.PAUSE) {
      answered = false;
      if (!paused) {
        paused = true;
        log.warn("No word from the group's coordinator for {} s: this node stops starting fetches, since the group "
            + "may give its partitions to another node soon. It goes on when the coordinator answers; if this "
            + "lasts, check the network between this node and the brokers", silence.silence(now).toSeconds());
        owner.groupSilent(true);
      }
    } else if (change == GroupSilence.Change.RESUME) {
      answered = true;
      answeredAt = now;
    }
  }

  /** Stops the watch; a pause in effect stays. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
