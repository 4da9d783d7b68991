package dev.crawler.cli;

import dev.crawler.config.ConfigException;
import dev.crawler.crawl.CrawlStartException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code crawler} command: its subcommands, and how errors become exit codes. */
@Command(
    name = "crawler",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A polite, resumable web crawler for very large crawls.",
    subcommands = {CrawlCommand.class, ResumeCommand.class, DemoCommand.class, StatusCommand.class, ConfigCommand.class,
        HeapCommand.class,
        CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:done",
        "1:failed while running (see the message)",
        "2:bad command line, configuration, seeds or crawl folder; nothing was started",
        "130, 143:a crawl stopped by Ctrl-C or SIGTERM (a clean stop all the same)"})
public final class CrawlerCommand implements java.util.concurrent.Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println("Missing command: say which one, for example 'crawler config --defaults'");
    commandLine.usage(commandLine.getErr());
    return ExitCode.BAD_USAGE;
  }

  public static void main(String[] args) {
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /** Runs the command line with the given streams and returns the exit code. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return run(out, err, List.of(), args);
  }

  /**
   * As {@link #run(PrintWriter, PrintWriter, String...)}, with more subcommands: the cluster's
   * jar adds {@code node} and {@code cluster} to the same command line.
   */
  public static int run(PrintWriter out, PrintWriter err, List<Object> moreSubcommands, String... args) {
    CommandLine commandLine = new CommandLine(new CrawlerCommand());
    moreSubcommands.forEach(commandLine::addSubcommand);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
      // Expected failures get their message only; a stack trace is for bugs.
      if (e instanceof ConfigException config) {
        cmd.getErr().println("Configuration error:");
        cmd.getErr().println(config.getMessage().indent(2).stripTrailing());
        return ExitCode.BAD_USAGE;
      }
      if (e instanceof CommandFailure failure) {
        cmd.getErr().println("error: " + failure.getMessage());
        return failure.exitCode();
      }
      if (e instanceof CrawlStartException notStarted) {
        cmd.getErr().println("error: " + notStarted.getMessage());
        return ExitCode.BAD_USAGE;
      }
      if (e instanceof IOException || e instanceof UncheckedIOException) {
        // A file or a disk failed (a full disk, an unreadable file): the message names it.
        cmd.getErr().println("error: " + e.getMessage());
        return ExitCode.FAILURE;
      }
      cmd.getErr().println("internal error (please report it): " + e);
      e.printStackTrace(cmd.getErr());
      return ExitCode.FAILURE;
    });
    return commandLine.execute(args);
  }
}
