package dev.crawler.config.internal;

/**
 * How one kind of configuration value is read from YAML and written back.
 * {@link #format} must produce text that {@link #read} turns into an equal value:
 * the printed defaults are read back by the loader, and a test holds that to it.
 */
public interface ValueType<T> {

  /** Reads the value, or throws {@link BadValue} saying what is wrong with it. */
  T read(YamlNode node) throws BadValue;

  /** The value as YAML text, in the form people write it ({@code 500ms}, {@code 1%}). */
  String format(T value);

  /** What is allowed, for error messages and the defaults file: "a duration such as 2s". */
  String allowed();

  /** A value that is not allowed; the message says what is wrong, without the key. */
  final class BadValue extends Exception {
    private static final long serialVersionUID = 1L;

    public BadValue(String message) {
      super(message, null, false, false);
    }
  }
}
