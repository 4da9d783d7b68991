package dev.crawler.cluster.broker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link KraftBroker} in a JVM of its own, so a test can kill it with SIGKILL and start it
 * again on the same log and ports. The child exits by itself when its parent's pipe to it
 * closes, so a test JVM that dies leaves no broker behind.
 */
public final class ChildBroker implements AutoCloseable {
  /** The child's line on stdout once clients can use the broker. */
  static final String READY = "broker ready";
  private static final long READY_SECONDS = 90;

  private final BrokerLayout layout;
  private final Process process;

  private ChildBroker(BrokerLayout layout, Process process) {
    this.layout = layout;
    this.process = process;
  }

  public static ChildBroker start(BrokerLayout layout) throws IOException, InterruptedException {
    Files.createDirectories(layout.dir());
    Path log = layout.dir().resolve("child-broker.log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        ChildBroker.class.getName()));
    command.addAll(List.of(layout.toArgs()));
    Process process = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    ChildBroker child = new ChildBroker(layout, process);
    try {
      child.awaitReady(log);
    } catch (IOException | RuntimeException | InterruptedException e) {
      child.kill();
      throw e;
    }
    return child;
  }

  public BrokerLayout layout() {
    return layout;
  }

  public long pid() {
    return process.pid();
  }

  /** SIGSTOP: the broker's process stays, its sockets open, and nothing answers (a network split, to its clients). */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}: the broker goes on where it stood, its timers late. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** SIGKILL: the broker gets no chance to flush or deregister. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** A clean shutdown (the child's stdin closes), or a kill if it does not stop in time. */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // The pipe is already gone: the child sees its end as closed too.
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  private void awaitReady(Path log) throws IOException, InterruptedException {
    CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.equals(READY)) {
            return true;
          }
        }
        return false;
      } catch (IOException e) {
        return false;
      }
    });
    try {
      if (!ready.get(READY_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("child broker exited before it was ready; its log: " + log);
      }
    } catch (TimeoutException e) {
      throw new IllegalStateException("child broker not ready after " + READY_SECONDS + " s; its log: " + log);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("child broker's output could not be read", e.getCause());
    }
  }

  /** The child: starts the broker of the layout in its arguments, and stops when stdin closes. */
  public static void main(String[] args) throws Exception {
    BrokerLayout layout = BrokerLayout.fromArgs(args);
    try (KraftBroker broker = KraftBroker.start(layout)) {
      System.out.println(READY);
      System.out.flush();
      while (System.in.read() >= 0) {
        // Nothing is sent; a read of -1 means the parent closed the pipe or died.
      }
    }
    System.exit(0);
  }
}
