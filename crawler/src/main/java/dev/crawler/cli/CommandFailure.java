package dev.crawler.cli;

/** An expected failure of a command (a file that cannot be read, a full disk): its message is shown, not its stack. */
public final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CommandFailure(String message, Throwable cause) {
    super(message, cause);
  }

  public CommandFailure(String message) {
    super(message);
  }
}
