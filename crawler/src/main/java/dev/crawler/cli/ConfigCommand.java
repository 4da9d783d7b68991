package dev.crawler.cli;

import dev.crawler.config.ConfigDocs;
import dev.crawler.config.ConfigException;
import dev.crawler.config.ConfigLoader;
import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.RefusedSeeds;
import java.io.IOException;
import java.nio.file.Path;
import okhttp3.Dns;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler config}: prints the documented defaults, or checks a file and prints its effective values. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Print the default configuration, or check a configuration file.",
        "A file only needs the keys it changes; every other key keeps its default."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "2:the file is invalid (each problem is printed with its line)"})
final class ConfigCommand implements Callable<Integer> {

  @ArgGroup(exclusive = true, multiplicity = "1")
  Action action;

  static final class Action {
    @Option(names = "--defaults", required = true,
        description = "Print every key with its default and documentation, as YAML.")
    boolean defaults;

    @Option(names = "--check", required = true, paramLabel = "FILE",
        description = "Validate FILE and print the effective configuration.")
    Path check;
  }

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    var out = spec.commandLine().getOut();
    if (action.defaults) {
      out.print(ConfigDocs.defaultsYaml());
      out.flush();
      return ExitCode.OK;
    }
    CrawlConfig config = ConfigLoader.load(action.check);
    out.println("# " + action.check + " is valid. Effective configuration:");
    out.print(config.toYaml());
    out.flush();
    try {
      config.requireReadyToCrawl();
    } catch (ConfigException notReady) {
      var err = spec.commandLine().getErr();
      err.println("note: a crawl with this file would stop at start:");
      err.println(notReady.getMessage().indent(2).stripTrailing());
    }
    for (String warning : RefusedSeeds.inSeedFile(config, Dns.SYSTEM)) {
      spec.commandLine().getErr().println("warning: " + warning);
    }
    return ExitCode.OK;
  }
}
