package dev.crawler.cluster.broker;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.Uuid;

/**
 * Where a loopback broker keeps its log and which ports it listens on: what a restart needs to
 * come back as the same broker, with the same topics, at the same address.
 *
 * @param dir the broker's log and metadata directory
 * @param clientPort the port clients bootstrap from
 * @param controllerPort the KRaft controller's port (the broker is its own single voter)
 * @param clusterId written into the directory when it is formatted
 */
public record BrokerLayout(Path dir, int clientPort, int controllerPort, String clusterId) {
  public static final String HOST = "127.0.0.1";
  /** Where {@link #kept} keeps a broker's ports and cluster id, in its folder. */
  public static final String KEPT = "layout.properties";

  /** A new broker in {@code dir} on two free loopback ports. */
  public static BrokerLayout fresh(Path dir) {
    return new BrokerLayout(dir, freePort(), freePort(), Uuid.randomUuid().toString());
  }

  /**
   * The layout kept in {@code dir} (its {@value #KEPT} file), with {@code clientPort} as its
   * client port; a new one (a free controller port, a new cluster id) if {@code dir} has none,
   * and a free controller port if the file names none.
   * Written back, so the next start comes back as the same broker.
   */
  public static BrokerLayout kept(Path dir, int clientPort) throws IOException {
    Path file = dir.resolve(KEPT);
    BrokerLayout layout;
    if (Files.exists(file)) {
      Properties kept = new Properties();
      try (Reader in = Files.newBufferedReader(file)) {
        kept.load(in);
      }
      String controller = kept.getProperty("controller-port");
      String cluster = kept.getProperty("cluster-id");
      if (cluster == null) {
        throw new IOException(file + " has no cluster-id: it is not a broker's layout");
      }
      // A single voter's address is configuration, not state: a missing port is picked anew.
      int controllerPort = controller == null ? freePort() : Integer.parseInt(controller.trim());
      layout = new BrokerLayout(dir, clientPort, controllerPort, cluster.trim());
    } else {
      layout = new BrokerLayout(dir, clientPort, freePort(), Uuid.randomUuid().toString());
    }
    Files.createDirectories(dir);
    Properties write = new Properties();
    write.setProperty("client-port", Integer.toString(layout.clientPort()));
    write.setProperty("controller-port", Integer.toString(layout.controllerPort()));
    write.setProperty("cluster-id", layout.clusterId());
    try (Writer out = Files.newBufferedWriter(file)) {
      write.store(out, "the broker of this folder; its log is in data/");
    }
    return layout;
  }

  public String bootstrapServers() {
    return HOST + ":" + clientPort;
  }

  /** As arguments of {@link ChildBroker}'s main. */
  String[] toArgs() {
    return new String[] {dir.toString(), Integer.toString(clientPort), Integer.toString(controllerPort), clusterId};
  }

  public static BrokerLayout fromArgs(String[] args) {
    if (args.length != 4) {
      throw new IllegalArgumentException("expected: DIR CLIENT_PORT CONTROLLER_PORT CLUSTER_ID, got " + args.length
          + " arguments");
    }
    return new BrokerLayout(Path.of(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]), args[3]);
  }

  /**
   * A port no one listened on a moment ago. Another process may take it before the broker
   * binds it; the broker's start then fails on the bind, and {@link KraftBroker#startFresh} tries
   * new ports.
   */
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
