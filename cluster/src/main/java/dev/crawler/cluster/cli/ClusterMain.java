package dev.crawler.cluster.cli;

import dev.crawler.cli.CrawlerCommand;
import java.io.PrintWriter;
import java.util.List;

/**
 * The command line of the cluster's jar: every command of {@code crawler}, plus {@code node} and
 * {@code cluster}. {@code bin/crawler} runs this jar for those two.
 */
public final class ClusterMain {
  private ClusterMain() {}

  public static void main(String[] args) {
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return CrawlerCommand.run(out, err, List.of(new NodeCommand(), new ClusterCommand()), args);
  }
}
