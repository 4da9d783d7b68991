package dev.crawler.config.internal;

import dev.crawler.config.DataSize;
import dev.crawler.config.ListenAddress;
import dev.crawler.config.internal.ValueType.BadValue;
import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The kinds of values a configuration key can hold. Each reads the text as people
 * write it: {@code 500ms}, {@code 2s}, {@code 6GB}, {@code 1%}, {@code 100_000_000},
 * {@code unlimited}.
 */
public final class ValueTypes {
  private ValueTypes() {}

  static final String UNLIMITED = "unlimited";
  static final String NONE = "none";

  /** A scalar type: rejects lists, mappings and missing values before parsing the text. */
  abstract static class Scalar<T> implements ValueType<T> {
    @Override
    public final T read(YamlNode node) throws BadValue {
      if (!(node instanceof YamlNode.Scalar scalar)) {
        throw new BadValue("expected a single value, got " + node.kind());
      }
      // Jackson reads "key:" with nothing after it as null in some places and as "" in others.
      if (scalar.isNull() || (scalar.text().isBlank() && !acceptsEmpty())) {
        throw new BadValue("has no value");
      }
      return parse(scalar.text().strip());
    }

    abstract T parse(String text) throws BadValue;

    /** True for types where "" is a value of its own, such as free text. */
    boolean acceptsEmpty() {
      return false;
    }
  }

  // ---------------------------------------------------------------- numbers

  /** A whole number within [min, max]; underscores and commas group digits, {@code 5e9} is allowed. */
  public static ValueType<Long> count(long min, long max) {
    return new Scalar<>() {
      @Override
      Long parse(String text) throws BadValue {
        long value = parseCount(text, allowed());
        checkRange(text, value, min, max);
        return value;
      }

      @Override
      public String format(Long value) {
        return formatCount(value);
      }

      @Override
      public String allowed() {
        return "a whole number " + rangeText(min, max);
      }
    };
  }

  /** An int within [min, max]. */
  public static ValueType<Integer> integer(int min, int max) {
    ValueType<Long> wide = count(min, max);
    return new Scalar<>() {
      @Override
      Integer parse(String text) throws BadValue {
        return Math.toIntExact(((Scalar<Long>) wide).parse(text));
      }

      @Override
      public String format(Integer value) {
        return wide.format(value.longValue());
      }

      @Override
      public String allowed() {
        return wide.allowed();
      }
    };
  }

  /** {@code unlimited} or a whole number of at least {@code min}. */
  public static ValueType<OptionalLong> limit(long min) {
    return new Scalar<>() {
      @Override
      OptionalLong parse(String text) throws BadValue {
        if (text.equalsIgnoreCase(UNLIMITED)) {
          return OptionalLong.empty();
        }
        long value = parseCount(text, allowed());
        checkRange(text, value, min, Long.MAX_VALUE);
        return OptionalLong.of(value);
      }

      @Override
      public String format(OptionalLong value) {
        return value.isPresent() ? formatCount(value.getAsLong()) : UNLIMITED;
      }

      @Override
      public String allowed() {
        return UNLIMITED + " or a whole number of " + min + " or more";
      }
    };
  }

  /** A rate strictly between 0 and 1, written {@code 1%} or {@code 0.01}. */
  public static ValueType<Double> rate() {
    return new Scalar<>() {
      @Override
      Double parse(String text) throws BadValue {
        double value;
        try {
          value = text.endsWith("%")
              ? Double.parseDouble(text.substring(0, text.length() - 1).strip()) / 100.0
              : Double.parseDouble(text);
        } catch (NumberFormatException e) {
          throw new BadValue("\"" + text + "\" is not a rate");
        }
        if (!(value > 0.0 && value < 1.0)) {
          throw new BadValue("\"" + text + "\" is outside (0, 1)");
        }
        return value;
      }

      @Override
      public String format(Double value) {
        return new BigDecimal(Double.toString(value * 100.0)).stripTrailingZeros().toPlainString() + "%";
      }

      @Override
      public String allowed() {
        return "a rate above 0 and below 1, such as 1% or 0.01";
      }
    };
  }

  // ---------------------------------------------------------------- durations

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)");

  /** A duration of at least {@code min}: {@code 500ms}, {@code 2s}, {@code 1.5m}, {@code 1h}, {@code 7d}, or {@code 0}. */
  public static ValueType<Duration> duration(Duration min) {
    return new Scalar<>() {
      @Override
      Duration parse(String text) throws BadValue {
        Duration value = parseDuration(text, allowed());
        if (value.compareTo(min) < 0) {
          throw new BadValue("\"" + text + "\" is " + (value.isNegative() ? "negative" : "below " + formatDuration(min)));
        }
        return value;
      }

      @Override
      public String format(Duration value) {
        return formatDuration(value);
      }

      @Override
      public String allowed() {
        return "a duration of " + formatDuration(min) + " or more, such as 500ms, 2s, 5m, 1h";
      }
    };
  }

  /** {@code unlimited} or a duration above zero. */
  public static ValueType<Optional<Duration>> durationLimit() {
    return new Scalar<>() {
      @Override
      Optional<Duration> parse(String text) throws BadValue {
        if (text.equalsIgnoreCase(UNLIMITED)) {
          return Optional.empty();
        }
        Duration value = parseDuration(text, allowed());
        if (value.isNegative() || value.isZero()) {
          throw new BadValue("\"" + text + "\" is not above zero");
        }
        return Optional.of(value);
      }

      @Override
      public String format(Optional<Duration> value) {
        return value.map(ValueTypes::formatDuration).orElse(UNLIMITED);
      }

      @Override
      public String allowed() {
        return UNLIMITED + " or a duration above 0, such as 30m, 12h, 7d";
      }
    };
  }

  static Duration parseDuration(String text, String allowed) throws BadValue {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("0")) {
      return Duration.ZERO;
    }
    boolean negative = lower.startsWith("-");
    Matcher m = DURATION.matcher(negative ? lower.substring(1).strip() : lower);
    if (!m.matches()) {
      if (lower.matches("-?\\d+(\\.\\d+)?")) {
        throw new BadValue("\"" + text + "\" has no unit; allowed: " + allowed);
      }
      throw new BadValue("\"" + text + "\" is not a duration; allowed: " + allowed);
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    long unitMillis = switch (m.group(2)) {
      case "ms" -> 1L;
      case "s" -> 1_000L;
      case "m" -> 60_000L;
      case "h" -> 3_600_000L;
      default -> 86_400_000L;
    };
    BigDecimal millis = amount.multiply(BigDecimal.valueOf(unitMillis));
    if (millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
      throw new BadValue("\"" + text + "\" is too long");
    }
    Duration value = Duration.ofMillis(millis.longValue());
    return negative ? value.negated() : value;
  }

  static String formatDuration(Duration value) {
    long ms = value.toMillis();
    if (ms == 0) {
      return "0";
    }
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    return ms + "ms";
  }

  // ---------------------------------------------------------------- sizes

  private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(b|kb|kib|mb|mib|gb|gib|tb|tib)?");

  /** A size in bytes of at least {@code min}: {@code 512KB}, {@code 10MB}, {@code 6GB}. K, M, G, T are powers of 1024. */
  public static ValueType<DataSize> size(DataSize min) {
    return new Scalar<>() {
      @Override
      DataSize parse(String text) throws BadValue {
        return parseSizeWithin(text, allowed(), min, DataSize.ofBytes(Long.MAX_VALUE));
      }

      @Override
      public String format(DataSize value) {
        return value.toString();
      }

      @Override
      public String allowed() {
        return "a size of " + min + " or more, such as 512KB, 10MB, 6GB (K, M, G = 1024, 1024², 1024³ bytes)";
      }
    };
  }

  /**
   * A size in bytes from {@code min} to {@code max}, for memory taken at start: a slipped unit
   * (8TB for 8GB) fails here, not when the crawl runs out of memory.
   */
  public static ValueType<DataSize> size(DataSize min, DataSize max) {
    return new Scalar<>() {
      @Override
      DataSize parse(String text) throws BadValue {
        return parseSizeWithin(text, allowed(), min, max);
      }

      @Override
      public String format(DataSize value) {
        return value.toString();
      }

      @Override
      public String allowed() {
        return "a size from " + min + " to " + max + ", such as " + sizeExamples(min, max)
            + " (K, M, G = 1024, 1024², 1024³ bytes)";
      }
    };
  }

  /** The usual examples that fall within the range, so the allowed text never shows a refused one. */
  private static String sizeExamples(DataSize min, DataSize max) {
    List<String> examples = new ArrayList<>();
    for (DataSize example : List.of(DataSize.ofBytes(512L << 10), DataSize.ofMegabytes(10), DataSize.ofBytes(6L << 30))) {
      if (example.bytes() >= min.bytes() && example.bytes() <= max.bytes()) {
        examples.add(example.toString());
      }
    }
    return String.join(", ", examples.isEmpty() ? List.of(min.toString(), max.toString()) : examples);
  }

  /** {@code none} or a size of at least {@code min}. */
  public static ValueType<Optional<DataSize>> optionalSize(DataSize min) {
    ValueType<DataSize> sized = size(min);
    return new Scalar<>() {
      @Override
      Optional<DataSize> parse(String text) throws BadValue {
        if (text.equalsIgnoreCase(NONE)) {
          return Optional.empty();
        }
        return Optional.of(((Scalar<DataSize>) sized).parse(text));
      }

      @Override
      public String format(Optional<DataSize> value) {
        return value.map(DataSize::toString).orElse(NONE);
      }

      @Override
      public String allowed() {
        return NONE + " or " + sized.allowed();
      }
    };
  }

  private static DataSize parseSizeWithin(String text, String allowed, DataSize min, DataSize max) throws BadValue {
    DataSize value = parseSize(text, allowed);
    if (value.bytes() < min.bytes()) {
      throw new BadValue("\"" + text + "\" is below " + min);
    }
    if (value.bytes() > max.bytes()) {
      throw new BadValue("\"" + text + "\" is above " + max);
    }
    return value;
  }

  static DataSize parseSize(String text, String allowed) throws BadValue {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.startsWith("-")) {
      throw new BadValue("\"" + text + "\" is negative");
    }
    Matcher m = SIZE.matcher(lower);
    if (!m.matches()) {
      throw new BadValue("\"" + text + "\" is not a size; allowed: " + allowed);
    }
    String unit = m.group(2) == null ? "b" : m.group(2);
    int power = switch (unit.charAt(0)) {
      case 'k' -> 1;
      case 'm' -> 2;
      case 'g' -> 3;
      case 't' -> 4;
      default -> 0;
    };
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1024).pow(power));
    if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new BadValue("\"" + text + "\" is too large");
    }
    return DataSize.ofBytes(bytes.longValue());
  }

  // ---------------------------------------------------------------- words

  /** true or false, and nothing else (YAML 1.1's yes/no/on/off are refused: they surprise). */
  public static ValueType<Boolean> bool() {
    return new Scalar<>() {
      @Override
      Boolean parse(String text) throws BadValue {
        return switch (text) {
          case "true" -> true;
          case "false" -> false;
          default -> throw new BadValue("\"" + text + "\" is not true or false");
        };
      }

      @Override
      public String format(Boolean value) {
        return value.toString();
      }

      @Override
      public String allowed() {
        return "true or false";
      }
    };
  }

  /** A Java enum written in lower case with dashes: {@code SAME_HOST} is {@code same-host}. */
  public static <E extends Enum<E>> ValueType<E> choice(Class<E> type) {
    E[] constants = type.getEnumConstants();
    return new Scalar<>() {
      @Override
      E parse(String text) throws BadValue {
        for (E constant : constants) {
          if (format(constant).equals(text)) {
            return constant;
          }
        }
        throw new BadValue("\"" + text + "\" is not one of the choices; allowed: " + allowed());
      }

      @Override
      public String format(E value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
      }

      @Override
      public String allowed() {
        return Arrays.stream(constants).map(this::format).collect(Collectors.joining(", "));
      }
    };
  }

  /** Any text, possibly empty, that passes {@code check} (which returns null or what is wrong). */
  public static ValueType<String> text(String allowed, Function<String, String> check) {
    return new Scalar<>() {
      @Override
      boolean acceptsEmpty() {
        return true;
      }

      @Override
      String parse(String text) throws BadValue {
        String problem = check.apply(text);
        if (problem != null) {
          throw new BadValue("\"" + text + "\" " + problem);
        }
        return text;
      }

      @Override
      public String format(String value) {
        return quote(value);
      }

      @Override
      public String allowed() {
        return allowed;
      }
    };
  }

  /** A file or directory path (relative paths are resolved by the loader against the config file's folder). */
  public static ValueType<Path> path() {
    return new Scalar<>() {
      @Override
      Path parse(String text) throws BadValue {
        if (text.isEmpty()) {
          throw new BadValue("is empty");
        }
        try {
          return Path.of(text);
        } catch (InvalidPathException e) {
          throw new BadValue("\"" + text + "\" is not a valid path: " + e.getReason());
        }
      }

      @Override
      public String format(Path value) {
        return quote(value.toString());
      }

      @Override
      public String allowed() {
        return "a file path, relative to the config file's folder or absolute";
      }
    };
  }

  // ---------------------------------------------------------------- lists

  /** A list of strings, each passing {@code check} (null or what is wrong with it). */
  public static ValueType<List<String>> list(String itemAllowed, Function<String, String> check) {
    return new ValueType<>() {
      @Override
      public List<String> read(YamlNode node) throws BadValue {
        if (node instanceof YamlNode.Scalar scalar && scalar.isNull()) {
          return List.of();
        }
        if (!(node instanceof YamlNode.Sequence sequence)) {
          throw new BadValue("expected a list, got " + node.kind());
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < sequence.items().size(); i++) {
          YamlNode item = sequence.items().get(i);
          if (!(item instanceof YamlNode.Scalar scalar) || scalar.isNull()) {
            throw new BadValue("item " + (i + 1) + " is " + item.kind() + ", not " + itemAllowed);
          }
          String problem = check.apply(scalar.text());
          if (problem != null) {
            throw new BadValue("item " + (i + 1) + " \"" + scalar.text() + "\" " + problem);
          }
          values.add(scalar.text());
        }
        return List.copyOf(values);
      }

      @Override
      public String format(List<String> value) {
        return value.stream().map(ValueTypes::quote).collect(Collectors.joining(", ", "[", "]"));
      }

      @Override
      public String allowed() {
        return "a list of " + itemAllowed;
      }
    };
  }

  /** Checks a Java regular expression; null when it compiles. */
  public static String regexProblem(String text) {
    try {
      Pattern.compile(text);
      return null;
    } catch (PatternSyntaxException e) {
      return "is not a valid regular expression: " + e.getDescription() + " near index " + e.getIndex();
    }
  }

  // ---------------------------------------------------------------- addresses

  static final String OFF = "off";
  private static final Pattern LISTEN = Pattern.compile("(?:\\[([0-9A-Fa-f:.]+)]|([A-Za-z0-9.-]+)):(\\d{1,5})");

  /** {@code off}, or {@code host:port} ({@code [::1]:port} for IPv6); port 0 takes any free one. */
  public static ValueType<Optional<ListenAddress>> listen() {
    return new Scalar<>() {
      @Override
      Optional<ListenAddress> parse(String text) throws BadValue {
        if (text.equalsIgnoreCase(OFF) || text.equalsIgnoreCase("false")) {
          return Optional.empty();   // YAML 1.1 readers may hand an unquoted off over as false
        }
        Matcher m = LISTEN.matcher(text);
        if (!m.matches()) {
          throw new BadValue("\"" + text + "\" is not host:port");
        }
        int port = Integer.parseInt(m.group(3));
        if (port > 65_535) {
          throw new BadValue("\"" + text + "\" has port " + port + ", above 65535");
        }
        return Optional.of(new ListenAddress(m.group(1) != null ? m.group(1) : m.group(2), port));
      }

      @Override
      public String format(Optional<ListenAddress> value) {
        return value.map(a -> quote(a.toString())).orElse(quote(OFF));
      }

      @Override
      public String allowed() {
        return OFF + ", or host:port such as 127.0.0.1:9477, 0.0.0.0:9477 or [::1]:9477 (port 0: any free port)";
      }
    };
  }

  // ---------------------------------------------------------------- helpers

  private static final Pattern THOUSANDS = Pattern.compile("-?\\d{1,3}(,\\d{3})+");

  /** Safe unquoted: no YAML indicator first ('*' would start an alias, '-' a list item, ...). */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./+][A-Za-z0-9_./*+ -]*");

  /** Quotes text for YAML unless it is plainly safe as it is. */
  static String quote(String value) {
    if (PLAIN.matcher(value).matches() && !value.endsWith(" ")
        && !List.of("true", "false", "null", "yes", "no", "on", "off", "~").contains(value.toLowerCase(Locale.ROOT))) {
      return value;
    }
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  static long parseCount(String text, String allowed) throws BadValue {
    if (text.indexOf(',') >= 0 && !THOUSANDS.matcher(text.strip()).matches()) {
      // "1,5" is no thousands separator: a decimal comma, or a typo. Read as 15 it would be wrong either way.
      throw new BadValue("\"" + text + "\" is not a whole number (commas only between groups of three digits); allowed: "
          + allowed);
    }
    String digits = text.replace("_", "").replace(",", "");
    try {
      if (digits.matches("-?\\d+")) {
        return Long.parseLong(digits);
      }
      if (digits.matches("-?\\d+(\\.\\d+)?[eE]\\+?\\d+")) {
        return new BigDecimal(digits).longValueExact();
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw new BadValue("\"" + text + "\" is not a whole number within range; allowed: " + allowed);
    }
    throw new BadValue("\"" + text + "\" is not a whole number; allowed: " + allowed);
  }

  static void checkRange(String text, long value, long min, long max) throws BadValue {
    if (value < min) {
      throw new BadValue("\"" + text + "\" is " + (value < 0 ? "negative" : "below " + formatCount(min)));
    }
    if (value > max) {
      throw new BadValue("\"" + text + "\" is above " + formatCount(max));   // spelled as in "allowed"
    }
  }

  static String rangeText(long min, long max) {
    return max == Long.MAX_VALUE ? "of " + min + " or more" : "from " + min + " to " + formatCount(max);
  }

  /** Groups digits with underscores past four digits, as YAML and Java both read them. */
  static String formatCount(long value) {
    String plain = Long.toString(value);
    if (Math.abs(value) < 10_000) {
      return plain;
    }
    StringBuilder grouped = new StringBuilder();
    int start = value < 0 ? 1 : 0;
    int digits = plain.length() - start;
    grouped.append(plain, 0, start);
    for (int i = 0; i < digits; i++) {
      if (i > 0 && (digits - i) % 3 == 0) {
        grouped.append('_');
      }
      grouped.append(plain.charAt(start + i));
    }
    return grouped.toString();
  }
}
