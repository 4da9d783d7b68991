package dev.crawler.cli;

import dev.crawler.status.StatusText;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code crawler status DIR}: the status page's figures as text, from the running crawl's page
 * (the folder names its address) or, for a crawl that is not running, from its stats.json.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {"Print how a crawl is going: from its status page while it runs, else from its stats.json.",
        "DIR is the crawl folder (crawl.data-dir), or the page's URL such as http://127.0.0.1:9477/."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:printed", "2:no crawl there (no status page and no stats.json)"})
final class StatusCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", description = "The crawl folder, or the URL of a running crawl's page.")
  String where;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (where.startsWith("http://") || where.startsWith("https://")) {
      out.print(StatusText.fromEndpoint(URI.create(where.endsWith("/") ? where : where + "/")));
      out.flush();
      return ExitCode.OK;
    }
    Path dir = Path.of(where);
    Optional<URI> page = StatusText.pageOf(dir);
    Path statsJson = dir.resolve("stats.json");
    if (page.isPresent()) {
      try {
        out.print(StatusText.fromEndpoint(page.get()));
        out.flush();
        return ExitCode.OK;
      } catch (IOException e) {
        // A killed crawl leaves its address behind: its stats.json is the best there is.
        spec.commandLine().getErr().println("The crawl's page " + page.get() + " does not answer ("
            + e.getMessage() + "); reading " + statsJson);
      }
    }
    if (!Files.exists(statsJson)) {
      throw new CommandFailure(dir + " holds no crawl: no " + statsJson.getFileName()
          + " and no running crawl's page", ExitCode.BAD_USAGE);
    }
    out.print(StatusText.fromStatsJson(statsJson));
    out.flush();
    return ExitCode.OK;
  }
}
