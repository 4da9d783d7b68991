package dev.crawler.cli;

/** An expected failure of a command (a file that cannot be read, a full disk): its message is shown, not its stack. */
public final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  public CommandFailure(String message, Throwable cause) {
    super(message, cause);
    this.exitCode = ExitCode.FAILURE;
  }

  public CommandFailure(String message) {
    this(message, ExitCode.FAILURE);
  }

  /** A failure with its own exit code: {@link ExitCode#BAD_USAGE} when nothing was started. */
  public CommandFailure(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
