package dev.crawler.cli;

import dev.crawler.config.ConfigLoader;
import dev.crawler.crawl.CrawlMemory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler heap --config FILE}: prints the {@code -Xmx} option that gives the crawl of FILE
 * the heap it asks for. Hidden: bin/crawler asks it before it starts a crawl's JVM.
 */
@Command(
    name = "heap",
    hidden = true,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Print the -Xmx option that gives the crawl of a configuration file the heap it asks for.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "2:the file is invalid"})
final class HeapCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    var out = spec.commandLine().getOut();
    out.println(CrawlMemory.of(ConfigLoader.load(config)).maxHeapOption());
    out.flush();
    return ExitCode.OK;
  }
}
