package dev.crawler.cli;

import dev.crawler.config.ConfigLoader;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code crawler crawl}: starts a new crawl from a configuration file and seeds. */
@Command(
    name = "crawl",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    // The first line is the summary `crawler --help` lists: a whole sentence.
    description = {
        "Start a new crawl; Ctrl-C stops it cleanly, and `bin/crawler resume` continues it.",
        "Progress is logged every stats.interval."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the crawl ended (finished, or a limit)", "1:the crawl failed (see the message)",
        "2:bad command line, configuration, seeds or crawl folder; nothing was started",
        "130, 143:stopped by Ctrl-C or SIGTERM (a clean stop all the same)"})
final class CrawlCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @Option(names = "--seeds", paramLabel = "FILE", description = "Seed URLs, one a line; replaces crawl.seeds.")
  Path seeds;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    CrawlEnvironment env = seeds == null ? CrawlEnvironment.standard() : CrawlEnvironment.standard().withSeedFile(seeds);
    return CrawlRun.openAndRun(ConfigLoader.load(config), Crawl.Start.NEW, env, spec.commandLine().getOut());
  }
}
