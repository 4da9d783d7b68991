package dev.crawler.cluster;

import dev.crawler.intake.AdmittedUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a {@link PartitionState} up to its partition's records, from its checkpoint to the end
 * each topic partition had when the catch-up began: the done records first, then the URL records.
 * In that order a state with no checkpoint becomes "URLs seen, minus those done, queued": a done
 * URL is marked seen before its URL record is read, so that record is SEEN and not queued, and
 * no set of done URLs is kept beside URL-seen.
 *
 * <p>Reads with a consumer of its own, assigned the one partition, outside the crawl's group: it
 * commits nothing, since where a state stands is its checkpoint. A checkpoint before the log's
 * first record (records removed the state never saw) is an error, not a silent skip.
 */
public final class PartitionReplay implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PartitionReplay.class);
  private static final Duration POLL = Duration.ofMillis(200);

  /** What a catch-up took. */
  public record Replayed(long doneRecords, long urlRecords, long queued) {}

  /** How long a read waits for the brokers by default, for its end or its next records. */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private final ClusterTopics topics;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Duration patience;

  /**
   * @param clientConfig the bootstrap servers and whatever else the crawl sets for its clients;
   *     {@code max.poll.records} (the records of one take) may be set here, 2,000 if not
   */
  public PartitionReplay(ClusterTopics topics, Map<String, Object> clientConfig) {
    this(topics, clientConfig, PATIENCE);
  }

  /**
   * @param patience how long a read waits for the brokers (its topic's end, its next records)
   *     before it fails with a {@link TimeoutException}: the brokers may be gone mid-read
   */
  public PartitionReplay(ClusterTopics topics, Map<String, Object> clientConfig, Duration patience) {
    this.topics = topics;
    this.patience = patience;
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000);
    config.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20);
    this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
  }

  /** The done records, then the URL records, after the state's checkpoint. */
  public Replayed catchUp(PartitionState state) {
    long started = System.nanoTime();
    long done = catchUpDone(state);
    long[] urls = catchUpUrls(state);
    if (done + urls[0] > 0) {
      log.info("Partition {}: took {} done and {} URL records ({} queued) in {} ms", state.partition(), done, urls[0],
          urls[1], (System.nanoTime() - started) / 1_000_000);
    }
    return new Replayed(done, urls[0], urls[1]);
  }

  /** The done records after the state's checkpoint; returns how many. */
  public long catchUpDone(PartitionState state) {
    return catchUpDone(state, () -> false);
  }

  /**
   * As {@link #catchUpDone(PartitionState)}, returning early once {@code stop} says so, between
   * two polls: the state's checkpoint then stands where its records were read to.
   */
  public long catchUpDone(PartitionState state, BooleanSupplier stop) {
    return catchUpDone(state, state.mayHoldDoneElsewhere(), stop);
  }

  /**
   * The done records after the state's checkpoint, before it leaves: its own, which its
   * frontier has ended, so a later return does not take them for another owner's.
   */
  public long catchUpOwnDone(PartitionState state, BooleanSupplier stop) {
    return catchUpDone(state, false, stop);
  }

  private long catchUpDone(PartitionState state, boolean doneElsewhere, BooleanSupplier stop) {
    TopicPartition tp = new TopicPartition(topics.done(), state.partition());
    return read(tp, state.checkpoint().done(), stop, (records, next) -> {
      List<DoneRecord> done = new ArrayList<>(records.size());
      for (ConsumerRecord<String, byte[]> r : records) {
        done.add(DoneRecord.decode(r));
      }
      state.takeDone(done, next, doneElsewhere);
      return 0;
    })[0];
  }

  /** The URL records after the state's checkpoint: {records, queued}. */
  private long[] catchUpUrls(PartitionState state) {
    TopicPartition tp = new TopicPartition(topics.urls(), state.partition());
    return read(tp, state.checkpoint().urls(), () -> false, (records, next) -> {
      List<AdmittedUrl> urls = new ArrayList<>(records.size());
      for (ConsumerRecord<String, byte[]> r : records) {
        urls.add(UrlRecord.decode(r));
      }
      return state.takeUrls(urls, next);
    });
  }

  private interface Taker {
    /** Takes one poll's records; returns how many were queued. */
    int take(List<ConsumerRecord<String, byte[]>> records, long nextOffset);
  }

  /**
   * Records of {@code tp} from {@code from} to its end now (or until {@code stop}), a poll at a
   * time: {records, queued}. Fails once the brokers gave nothing for the whole patience.
   */
  private long[] read(TopicPartition tp, long from, BooleanSupplier stop, Taker taker) {
    consumer.assign(List.of(tp));
    try {
      long end = consumer.endOffsets(List.of(tp), patience).get(tp);
      long[] taken = new long[2];
      if (from >= end) {
        return taken;
      }
      consumer.seek(tp, from);
      long lastProgress = System.nanoTime();
      while (consumer.position(tp, patience) < end && !stop.getAsBoolean()) {
        List<ConsumerRecord<String, byte[]>> records = consumer.poll(POLL).records(tp);
        if (!records.isEmpty()) {
          taken[1] += taker.take(records, records.get(records.size() - 1).offset() + 1);
          taken[0] += records.size();
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > patience.toNanos()) {
          throw new TimeoutException("no record of " + tp + " came in " + patience.toSeconds() + " s, at offset "
              + consumer.position(tp, patience) + " of " + end);
        }
      }
      return taken;
    } finally {
      consumer.unsubscribe();
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
