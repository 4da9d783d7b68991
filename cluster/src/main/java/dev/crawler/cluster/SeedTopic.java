package dev.crawler.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The crawl's seeds on {@code <crawl>.seeds}: written by {@code crawler cluster seed}, read whole
 * by every node, whose scope (same host, same domain) is relative to them. A seed's URL record
 * goes to its partition's owner like any URL; this topic only tells every node what is in scope.
 */
public final class SeedTopic {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SeedTopic.class);
  private static final Duration POLL = Duration.ofMillis(500);

  private SeedTopic() {}

  /** Writes the seeds (normal forms) and waits until the broker has them all. */
  public static void publish(ClusterTopics topics, Map<String, Object> clientConfig, List<String> seeds) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
        new ByteArraySerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (String seed : seeds) {
        sent.add(producer.send(new ProducerRecord<>(topics.seeds(), 0, null, seed.getBytes(StandardCharsets.UTF_8))));
      }
      for (Future<RecordMetadata> f : sent) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the seeds were written to " + topics.seeds(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the seeds could not be written to " + topics.seeds() + ": "
          + e.getCause().getMessage(), e.getCause());
    }
  }

  /** Follows the seed topic from its first record, telling {@code seed} of each, until {@link #close}. */
  static final class Reader implements AutoCloseable {
    private final TopicPartition tp;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Consumer<String> seed;
    private volatile boolean closed;
    private volatile boolean following;

    Reader(ClusterTopics topics, Map<String, Object> clientConfig, Consumer<String> seed) {
      this.tp = new TopicPartition(topics.seeds(), 0);
      this.seed = seed;
      Map<String, Object> config = new HashMap<>(clientConfig);
      config.remove(ConsumerConfig.GROUP_ID_CONFIG);
      config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
    }

    /** Reads every seed written so far; returns how many. */
    long readToEnd() {
      long end = consumer.endOffsets(List.of(tp)).get(tp);
      long n = 0;
      while (consumer.position(tp) < end) {
        n += take();
      }
      return n;
    }

    /** Reads on until closed; for a thread of its own. */
    /** Reads on, on a daemon thread of this name, until closed. */
    Thread followOn(String threadName) {
      following = true;
      return Thread.ofPlatform().name(threadName).daemon().start(() -> {
        try {
          follow();
        } catch (RuntimeException e) {
          log.warn("The seeds of {} can no longer be read ({}): seeds added from now on are not in this node's "
              + "scope until it restarts", tp.topic(), e.toString());
        }
      });
    }

    private void follow() {
      try {
        while (!closed) {
          take();
        }
      } catch (WakeupException e) {
        if (!closed) {
          throw e;
        }
      } finally {
        consumer.close();
      }
    }

    private int take() {
      List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL).records(tp);
      for (ConsumerRecord<byte[], byte[]> r : records) {
        seed.accept(new String(r.value(), StandardCharsets.UTF_8));
      }
      return records.size();
    }

    @Override
    public void close() {
      closed = true;
      if (following) {
        consumer.wakeup();   // follow() closes it
      } else {
        consumer.close();
      }
    }
  }
}
