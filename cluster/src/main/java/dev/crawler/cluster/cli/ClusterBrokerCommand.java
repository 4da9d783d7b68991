package dev.crawler.cluster.cli;

import dev.crawler.cli.ExitCode;
import dev.crawler.cli.VersionProvider;
import dev.crawler.cluster.broker.BrokerLayout;
import dev.crawler.cluster.broker.KraftBroker;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler cluster broker}: the Kafka broker the cluster demo uses, on its own, for trying
 * nodes as separate processes on one machine without installing Kafka. One broker, one replica
 * of everything, loopback only: not for a crawl that matters.
 */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Run a single Kafka broker on 127.0.0.1 for trying a cluster of nodes on this machine; Ctrl-C stops it.",
        "Started again on the same folder it keeps its topics, offsets and port. One replica, no security:",
        "for a real crawl use a Kafka cluster of your own."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"1:the broker failed to start (see the message)", "2:bad command line, or the port is taken"})
final class ClusterBrokerCommand implements Callable<Integer> {
  /** The line a script can wait for: the broker answers clients from then on. */
  static final String READY = "Kafka broker ready on ";

  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The broker's folder: its log and layout.")
  Path dir;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092",
      description = "The port clients connect to (default: ${DEFAULT-VALUE}).")
  int port;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (port < 1 || port > 65_535) {
      err.println("--port " + port + " is not a port (1-65535)");
      return ExitCode.BAD_USAGE;
    }
    BrokerLayout layout = BrokerLayout.kept(dir.toAbsolutePath(), port);
    // Looked at first: Kafka logs a port it cannot bind as an ERROR with its stack trace.
    for (int taken : new int[] {layout.clientPort(), layout.controllerPort()}) {
      if (!free(taken)) {
        err.println(taken == port
            ? "Port " + port + " is taken by another process: stop it, or pass another --port"
            : "The broker's controller port " + taken + " (kept in " + layout.dir().resolve(BrokerLayout.KEPT)
                + ") is taken by another process: stop it, or delete that line of the file to pick a new port");
        return ExitCode.BAD_USAGE;
      }
    }
    out.println("Starting a Kafka broker in " + layout.dir() + " (a few seconds)...");
    out.flush();
    KraftBroker broker;
    try {
      broker = KraftBroker.start(layout);
    } catch (Exception e) {
      if (KraftBroker.isBindFailure(e)) {   // taken since it was looked at
        err.println("Port " + port + " or the broker's controller port " + layout.controllerPort()
            + " was taken by another process meanwhile: stop it, or pass another --port");
        return ExitCode.BAD_USAGE;
      }
      err.println("The broker did not start: " + e);
      return ExitCode.FAILURE;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      broker.close();   // a clean shutdown: the next start needs no log recovery
      stopped.countDown();
    }, "broker-shutdown"));
    out.println(READY + layout.bootstrapServers() + ". In each node's configuration: cluster: {bootstrap-servers: ["
        + layout.bootstrapServers() + "], ...}. Ctrl-C stops it.");
    out.flush();
    stopped.await();
    return ExitCode.OK;
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);   // as Kafka's own acceptor binds: a port in TIME_WAIT is free to it
      socket.bind(new InetSocketAddress(BrokerLayout.HOST, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
