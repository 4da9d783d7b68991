package dev.crawler.cli;

import dev.crawler.config.CrawlConfig;
import dev.crawler.crawl.Crawl;
import dev.crawler.crawl.CrawlEnvironment;
import dev.crawler.crawl.CrawlStartException;
import dev.crawler.crawl.StopReason;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs an opened crawl in the foreground: Ctrl-C and SIGTERM stop it cleanly (the JVM's
 * shutdown hook asks it to stop and waits until it is closed), and its end becomes an exit code.
 */
public final class CrawlRun {
  /** Longer than the crawl's own stop grace, so a clean stop is never cut by the JVM. */
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(60);

  private CrawlRun() {}

  /**
   * Runs an opened crawl until it ends, then closes it; the exit code says how it ended.
   *
   * @param configFile the configuration's file, named in the advice to resume; null for none (the demo)
   */
  public static int run(Crawl crawl, PrintWriter out, String configFile) {
    // Counted down once this thread has closed the crawl and said how it ended: the JVM halts
    // when its hooks return, so a hook that returned on the crawl's end alone cut that message.
    CountDownLatch reported = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      crawl.stop();
      try {
        if (!reported.await(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          try {
            closeQuietly(crawl);
          } catch (CommandFailure e) {
            // Uncaught on this thread it would print a stack trace as the JVM exits: a message does.
            System.err.println("error: " + e.getMessage());
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "crawl-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      StopReason reason;
      try {
        reason = crawl.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reason = StopReason.STOPPED;
      } finally {
        closeQuietly(crawl);
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook is running: it has stopped the crawl and waits for the message below
        }
      }
      out.println("Crawl ended: " + reason.description() + ".");
      if (reason.resumable() && configFile != null) {
        // The page limit counts the whole crawl: a resume under the same limit would stop at once.
        out.println("Continue it with: bin/crawler resume --config " + configFile
            + (reason == StopReason.MAX_PAGES ? " (after raising crawl.limits.max-pages in it)" : ""));
      }
      out.flush();
      return reason == StopReason.FAILED ? ExitCode.FAILURE : ExitCode.OK;
    } finally {
      reported.countDown();
    }
  }

  /** Closing twice is harmless: the second call finds nothing open. */
  private static synchronized void closeQuietly(Crawl crawl) {
    try {
      crawl.close();
    } catch (IOException | RuntimeException e) {
      throw new CommandFailure("closing the crawl failed: " + e.getMessage(), e);
    }
  }

  /**
   * Opens the crawl and runs it (see {@link #run}). A crawl that cannot start (its folder, its
   * seeds) did nothing, so that is a usage error: exit code 2.
   */
  static int openAndRun(CrawlConfig config, Crawl.Start start, CrawlEnvironment env, PrintWriter out)
      throws IOException {
    Crawl crawl;
    try {
      crawl = Crawl.open(config, start, env);
    } catch (CrawlStartException e) {
      throw new CommandFailure(e.getMessage(), ExitCode.BAD_USAGE);
    }
    if (start == Crawl.Start.RESUME && crawl.isFinished()) {
      out.println("Nothing to resume: the crawl in " + crawl.directory() + " is finished (its frontier is empty, "
          + String.format(java.util.Locale.US, "%,d", crawl.stats().requested()) + " pages requested). To crawl"
          + " again, start a new crawl with another crawl.data-dir.");
      out.flush();
      closeQuietly(crawl);
      return ExitCode.OK;
    }
    return run(crawl, out, config.source());
  }
}
