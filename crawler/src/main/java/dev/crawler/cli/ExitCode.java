package dev.crawler.cli;

/** The process exit codes, listed in every command's --help. */
public final class ExitCode {
  private ExitCode() {}

  /** The command did what was asked. */
  public static final int OK = 0;
  /** Something failed while running: an unreadable file, a full disk, a crash of a part. */
  public static final int FAILURE = 1;
  /** The command line or the configuration is wrong; nothing was started. */
  public static final int BAD_USAGE = 2;
}
