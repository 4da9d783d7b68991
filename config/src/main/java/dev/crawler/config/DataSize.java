package dev.crawler.config;

/**
 * A number of bytes, printed and read as people write sizes: {@code 10MB}, {@code 6GB}.
 * K, M, G and T are powers of 1024, as in memory sizes.
 */
public record DataSize(long bytes) {
  private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB"};

  public DataSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("A size (" + bytes + ") must be >= 0");
    }
  }

  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  public static DataSize ofMegabytes(long megabytes) {
    return new DataSize(Math.multiplyExact(megabytes, 1024L * 1024));
  }

  /** In the largest unit that divides the size exactly, so it reads back unchanged: 10485760 is "10MB", 1536 is "1536B". */
  @Override
  public String toString() {
    long value = bytes;
    int unit = 0;
    while (unit < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
      value /= 1024;
      unit++;
    }
    return value + UNITS[unit];
  }
}
