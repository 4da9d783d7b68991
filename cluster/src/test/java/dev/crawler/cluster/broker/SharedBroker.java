package dev.crawler.cluster.broker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One in-process {@link KraftBroker} for every test class of a test JVM that asks for it, started
 * by the first and stopped when the JVM's tests end: a broker's start is most of a short test's
 * time. Tests share it by using topics and groups of their own (a crawl name each). A test
 * class extended with this takes the broker's {@link Address} as a parameter.
 */
public final class SharedBroker implements ParameterResolver {
  /** Where the shared broker listens. */
  public record Address(String bootstrapServers) {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Address.class;
  }

  @Override
  public Address resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Running running = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(SharedBroker.class, k -> new Running(), Running.class);
    return new Address(running.broker.bootstrapServers());
  }

  private static final class Running implements AutoCloseable {
    final Path dir;
    final KraftBroker broker;

    Running() {
      try {
        dir = Files.createTempDirectory("shared-broker");
        broker = KraftBroker.startFresh(dir);
      } catch (Exception e) {
        throw new IllegalStateException("the test broker did not start", e);
      }
    }

    @Override
    public void close() throws Exception {
      broker.close();
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
