package dev.crawler.cluster.cli;

import dev.crawler.cli.VersionProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code crawler cluster}: what concerns a crawl across machines as a whole. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Seed a crawl across machines, show its partitions and owners, run its demo, or a broker to try it.",
    subcommands = {SeedCommand.class, ClusterStatusCommand.class, ClusterDemoCommand.class, ClusterBrokerCommand.class})
final class ClusterCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println("Missing command: seed, status, demo or broker");
    commandLine.usage(commandLine.getErr());
    return dev.crawler.cli.ExitCode.BAD_USAGE;
  }
}
