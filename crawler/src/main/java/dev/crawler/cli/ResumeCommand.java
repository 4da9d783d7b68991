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

/** {@code crawler resume}: continues a crawl from its folder (frontier, filter, counters). */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "Continue a crawl stopped by Ctrl-C, a limit, or a crash, from its crawl.data-dir.",
        "URLs that were being fetched when it stopped are fetched again."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the crawl ended (finished, or a limit)", "1:the crawl failed (see the message)",
        "2:bad command line, configuration, seeds or crawl folder; nothing was started",
        "130, 143:stopped by Ctrl-C or SIGTERM (a clean stop all the same)"})
final class ResumeCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The crawl's YAML configuration.")
  Path config;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    return CrawlRun.openAndRun(ConfigLoader.load(config), Crawl.Start.RESUME, CrawlEnvironment.standard(),
        spec.commandLine().getOut());
  }
}
