package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Feeds a node's {@link PartitionOwner} the URLs of the partitions the crawl's consumer group
 * gives it, one partition's records at a time, and commits their offsets once it has taken them.
 *
 * <p>The group runs the consumer protocol of KIP-848: the broker assigns partitions
 * incrementally, and a partition leaves its owner only after the owner's revocation returned,
 * so two nodes never hold one partition at once (unless the old owner's session expired, which
 * {@link PartitionOwner#lost} reports).
 *
 * <p>Where a partition is read from is the owner's to say ({@link PartitionOwner#assigned}): its
 * local checkpoint if it has one, else the partition's first record. The group's committed
 * offset is not used for that, because it tells what the previous owner's disk holds, and a
 * new owner does not have that disk. It is committed all the same, for the partition's lag.
 *
 * <p>{@link #run} polls on the calling thread until {@link #stop}; everything else of the
 * consumer happens there.
 */
public final class UrlTopicConsumer implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(UrlTopicConsumer.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final int FETCH_MIN_BYTES = 64 << 10;
  private static final int FETCH_MAX_WAIT_MS = 100;
  /** How long a stopping node waits for the brokers to let it leave, and to close its consumer. */
  private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(15);

  private final ClusterTopics topics;
  private final PartitionOwner owner;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, Object> adminConfig;
  private volatile boolean stopped;
  /** Records of the owned partitions not taken yet, as of the last poll; -1 before the first. */
  private volatile long lag = -1;
  private volatile boolean commitFailing;
  /**
   * The partitions given and not yet revoked or lost, as the callbacks told them (the consumer's
   * thread only): a close after leaving may call the lost callback with partitions already revoked.
   */
  private final Set<Integer> held = new HashSet<>();
  /** Partitions given whose owner is not ready for their records yet, paused until it is (the consumer's thread only). */
  private final Map<TopicPartition, CompletableFuture<Void>> notReady = new HashMap<>();

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients;
   *     the group, its protocol, offsets and deserializers are set here
   * @param nodeId this node's name in the group (its client id)
   */
  public UrlTopicConsumer(ClusterTopics topics, Map<String, Object> clientConfig, String nodeId, PartitionOwner owner) {
    this.topics = topics;
    this.owner = owner;
    this.adminConfig = Map.copyOf(clientConfig);
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, topics.groupId());
    config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, nodeId);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // Fewer, larger fetches: a URL waits up to a tenth of a second more to be queued, and the
    // broker, this client and each take pay their per-request cost for many records at once.
    config.putIfAbsent(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, FETCH_MIN_BYTES);
    config.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
    // Bounds the leave at a stop (and a commit) when the brokers vanish: a minute by default.
    config.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) LEAVE_TIMEOUT.toMillis());
    this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public void run() {
    Optional<GroupSilenceWatch> watch = Optional.empty();
    try {
      Duration pauseAfter = GroupTimeouts.read(adminConfig, topics.groupId()).pauseAfter();
      consumer.subscribe(List.of(topics.urls()), new Listener());
      watch = GroupSilenceWatch.start(consumer, pauseAfter, owner);
      while (!stopped) {
        resumeReady();
        long pollStarted = System.nanoTime();
        take(consumer.poll(POLL));
        watch.ifPresent(w -> w.resumeIfHeard(pollStarted));
        lag = currentLag();
      }
    } catch (WakeupException e) {
      if (!stopped) {
        throw e;
      }
    } finally {
      try {
        leave(watch);
      } finally {
        watch.ifPresent(GroupSilenceWatch::close);   // after: a close that cannot reach the group pauses too
      }
    }
  }

  /**
   * Leaves the group, the owner's partitions revoked first, then closes the consumer. Leaving
   * before closing lets an assignment still on its way run its callback and be revoked like the
   * rest; a close alone fails it, and the client logs that as an error with its stack trace. Cut
   * off from the group, the leave would only wait out its timeout: the close alone then, whose
   * partitions leave as lost ones.
   */
  private void leave(Optional<GroupSilenceWatch> watch) {
    if (watch.map(GroupSilenceWatch::paused).orElse(false)) {
      // Its partitions leave as lost ones; the coordinator it would wait for is out of reach.
      consumer.close(CloseOptions.timeout(LEAVE_TIMEOUT));
      return;
    }
    try {
      consumer.unsubscribe();
    } catch (RuntimeException e) {
      log.warn("Leaving the group failed ({}): the node closes its consumer, and the group gives its partitions "
          + "away once its session has expired", e.toString());
    } finally {
      consumer.close(CloseOptions.timeout(LEAVE_TIMEOUT));
    }
  }

  /** Ends {@link #run} from any thread: its current poll returns, its partitions are revoked. */
  public void stop() {
    stopped = true;
    consumer.wakeup();
  }

  /** Resumes the partitions whose owner has become ready for their records. */
  private void resumeReady() {
    if (notReady.isEmpty()) {
      return;
    }
    List<TopicPartition> ready = new ArrayList<>();
    for (Map.Entry<TopicPartition, CompletableFuture<Void>> e : notReady.entrySet()) {
      CompletableFuture<Void> f = e.getValue();
      if (f.isCompletedExceptionally()) {
        Throwable why = f.exceptionNow();
        throw new IllegalStateException("partition " + e.getKey().partition() + " cannot be taken here: " + why, why);
      } else if (f.isDone()) {
        ready.add(e.getKey());
      }
    }
    if (!ready.isEmpty()) {
      ready.forEach(notReady::remove);
      consumer.resume(ready);
    }
  }

  private void take(ConsumerRecords<String, byte[]> records) {
    if (records.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
    for (TopicPartition tp : records.partitions()) {
      List<ConsumerRecord<String, byte[]>> ofPartition = records.records(tp);
      List<AdmittedUrl> urls = new ArrayList<>(ofPartition.size());
      for (ConsumerRecord<String, byte[]> r : ofPartition) {
        urls.add(UrlRecord.decode(r));
      }
      long next = ofPartition.get(ofPartition.size() - 1).offset() + 1;
      owner.take(tp.partition(), urls, next);
      taken.put(tp, new OffsetAndMetadata(next));
    }
    try {
      consumer.commitSync(taken);
      if (commitFailing) {
        commitFailing = false;
        log.info("Offsets are committed again");
      }
    } catch (RetriableException | CommitFailedException e) {
      // The state holds what was taken, and its checkpoint says so: the next commit covers these offsets too.
      if (!commitFailing) {
        commitFailing = true;
        log.warn("The consumer's offsets could not be committed ({}): retried with the next records; the lag shown "
            + "for this node's partitions is behind until then", e.getMessage());
      }
    }
  }

  /** The records of the owned partitions not taken yet, as of the last poll; -1 if unknown. */
  public long lag() {
    return lag;
  }

  private long currentLag() {
    long sum = 0;
    try {
      for (TopicPartition tp : consumer.assignment()) {
        var of = consumer.currentLag(tp);
        if (of.isEmpty()) {
          return -1;
        }
        sum += of.getAsLong();
      }
    } catch (IllegalStateException e) {
      return -1;   // the assignment moved on between the two calls (the consumer reconciles it in the background)
    }
    return sum;
  }

  private final class Listener implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      List<TopicPartition> replayed = new ArrayList<>();
      owner.assigning(partitions.stream().map(TopicPartition::partition).toList());
      List<TopicPartition> waiting = new ArrayList<>();
      for (TopicPartition tp : partitions) {
        OptionalLong checkpoint = owner.assigned(tp.partition());
        held.add(tp.partition());
        if (checkpoint.isPresent()) {
          consumer.seek(tp, checkpoint.getAsLong());
        } else {
          replayed.add(tp);
        }
        CompletableFuture<Void> ready = owner.ready(tp.partition());
        if (!ready.isDone() || ready.isCompletedExceptionally()) {
          notReady.put(tp, ready);
          waiting.add(tp);
        }
      }
      if (!replayed.isEmpty()) {
        consumer.seekToBeginning(replayed);
      }
      if (!waiting.isEmpty()) {
        consumer.pause(waiting);   // their records wait for the owner, which reads beside the polls; resumed within a poll
      }
      logStart(partitions, replayed);
    }

    /** One line for people: where each new partition starts, and how many records that leaves to read. */
    private void logStart(Collection<TopicPartition> partitions, List<TopicPartition> replayed) {
      if (partitions.isEmpty()) {
        return;
      }
      try {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        StringBuilder line = new StringBuilder();
        long toRead = 0;
        for (TopicPartition tp : partitions) {
          long from = replayed.contains(tp) ? consumer.beginningOffsets(List.of(tp)).get(tp) : consumer.position(tp);
          long n = Math.max(0, ends.get(tp) - from);
          toRead += n;
          line.append(line.isEmpty() ? "" : ", ").append(tp.partition())
              .append(replayed.contains(tp) ? " replayed whole (" : " from its checkpoint (").append(n).append(")");
        }
        log.info("Taking {} partition(s), {} URL record(s) to read: {}", partitions.size(), toRead, line);
      } catch (RuntimeException e) {
        log.debug("Where the new partitions start could not be told", e);
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      // Every record polled so far was taken and committed before this poll: nothing is pending.
      List<Integer> leaving = partitions.stream().map(TopicPartition::partition).toList();
      owner.revokedAll(leaving);
      held.removeAll(leaving);
      partitions.forEach(notReady::remove);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      List<Integer> lost = partitions.stream().map(TopicPartition::partition).filter(held::contains).sorted().toList();
      if (!lost.isEmpty()) {
        log.warn("Lost partition(s) {}: the group stopped hearing from this node (a long pause, or the broker out of "
            + "reach) and may have given them to another node already; fetches under way here end, and a page or "
            + "two may be fetched twice. If this repeats, look for long GC pauses or a starved machine", lost);
      }
      for (int p : lost) {
        owner.lost(p);
        held.remove(p);
      }
      partitions.forEach(notReady::remove);
    }
  }
}
