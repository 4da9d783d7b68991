package dev.crawler.cluster.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.apache.kafka.common.Uuid;

/**
 * Where a test broker keeps its log and which loopback ports it listens on: what a restart
 * needs to come back as the same broker, with the same topics, at the same address.
 *
 * @param dir the broker's log and metadata directory
 * @param clientPort the port clients bootstrap from
 * @param controllerPort the KRaft controller's port (the broker is its own single voter)
 * @param clusterId written into the directory when it is formatted
 */
public record BrokerLayout(Path dir, int clientPort, int controllerPort, String clusterId) {
  public static final String HOST = "127.0.0.1";

  /** A new broker in {@code dir} on two free loopback ports. */
  public static BrokerLayout fresh(Path dir) {
    return new BrokerLayout(dir, freePort(), freePort(), Uuid.randomUuid().toString());
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
