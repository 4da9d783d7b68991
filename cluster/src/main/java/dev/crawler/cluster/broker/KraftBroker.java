package dev.crawler.cluster.broker;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A real Kafka broker in this JVM, in KRaft mode as its own single controller (combined
 * broker and controller), on loopback. Tests start it themselves; nothing is installed.
 *
 * <p>Tuned for a small test machine: one partition for each internal topic (the offsets topic
 * otherwise has 50, which the first group waits for), few threads, a small cleaner buffer,
 * and the group protocols' heartbeats and timeouts short enough that a test sees a rebalance
 * or a dead member in seconds.
 */
public final class KraftBroker implements AutoCloseable {
  private static final String CONTROLLER = "CONTROLLER";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final BrokerLayout layout;
  private final KafkaRaftServer server;

  private KraftBroker(BrokerLayout layout, KafkaRaftServer server) {
    this.layout = layout;
    this.server = server;
  }

  /** A new broker in {@code dir} on free ports; tries other ports if one was taken meanwhile. */
  public static KraftBroker startFresh(Path dir) throws Exception {
    KafkaException lastBindFailure = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      Path attemptDir = dir.resolve("broker-" + attempt);
      try {
        return start(BrokerLayout.fresh(attemptDir));
      } catch (KafkaException e) {
        if (!isBindFailure(e)) {
          throw e;
        }
        lastBindFailure = e;
      }
    }
    throw lastBindFailure;
  }

  /**
   * The broker of {@code layout}: formats its directory if it is new, else starts on what it
   * holds (a restart keeps its topics and offsets). Returns once it answers clients.
   */
  public static KraftBroker start(BrokerLayout layout) throws Exception {
    Path data = layout.dir().resolve("data");
    Map<String, Object> props = config(layout, data);
    if (!Files.exists(data.resolve("meta.properties"))) {
      Files.createDirectories(data);
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(1)
          .setClusterId(layout.clusterId())
          .setDirectories(List.of(data.toString()))
          .setMetadataLogDirectory(data.toString())
          .setControllerListenerName(CONTROLLER)
          .run();
    }
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
    try {
      server.startup();
      awaitReady(layout);
    } catch (Exception | Error e) {
      server.shutdown();
      server.awaitShutdown();
      throw e;
    }
    return new KraftBroker(layout, server);
  }

  public BrokerLayout layout() {
    return layout;
  }

  public String bootstrapServers() {
    return layout.bootstrapServers();
  }

  /** A clean shutdown; the directory stays, for a restart from {@link #layout}. */
  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }

  static Map<String, Object> config(BrokerLayout layout, Path data) {
    String host = BrokerLayout.HOST;
    Map<String, Object> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@" + host + ":" + layout.controllerPort());
    p.put("listeners", "PLAINTEXT://" + host + ":" + layout.clientPort() + "," + CONTROLLER + "://" + host + ":"
        + layout.controllerPort());
    p.put("advertised.listeners", "PLAINTEXT://" + host + ":" + layout.clientPort());
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
    p.put("controller.listener.names", CONTROLLER);
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", data.toString());
    p.put("metadata.log.dir", data.toString());
    p.put("auto.create.topics.enable", "false");
    // One broker: every internal topic has one replica, and one partition is plenty for a test.
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("share.coordinator.state.topic.num.partitions", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    // The consumer group protocol (KIP-848): heartbeats and session short enough for tests.
    p.put("group.consumer.min.heartbeat.interval.ms", "100");
    p.put("group.consumer.heartbeat.interval.ms", "500");
    p.put("group.consumer.min.session.timeout.ms", "3000");
    p.put("group.consumer.session.timeout.ms", "6000");
    // Few threads and a small cleaner buffer (128 MB by default) on a 2-core machine.
    p.put("num.network.threads", "1");
    p.put("num.io.threads", "2");
    p.put("background.threads", "2");
    p.put("num.recovery.threads.per.data.dir", "1");
    p.put("num.replica.fetchers", "1");
    p.put("log.cleaner.threads", "1");
    p.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 << 20));
    return p;
  }

  /** Until an admin client sees the broker in the cluster: it is then registered and unfenced. */
  private static void awaitReady(BrokerLayout layout) throws Exception {
    Map<String, Object> conf = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, layout.bootstrapServers());
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (Admin admin = Admin.create(conf)) {
      while (true) {
        try {
          if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (ExecutionException | TimeoutException e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("broker at " + layout.bootstrapServers() + " not ready after "
                + READY_TIMEOUT.toSeconds() + " s", e);
          }
        }
        Thread.sleep(50);
      }
    }
  }

  /** Whether {@code e} comes from a listener that could not bind its port (taken by another process). */
  public static boolean isBindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException) {
        return true;
      }
    }
    return false;
  }
}
