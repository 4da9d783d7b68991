package dev.crawler.frontier.internal;

import static com.google.common.base.Preconditions.checkArgument;

import dev.crawler.frontier.Partitions;
import java.nio.charset.StandardCharsets;

/**
 * Host keys as stored, and the partition a host belongs to ({@link Partitions}, the crawl's one
 * partition function, which a cluster routes URLs by too).
 */
public final class HostKeys {
  private HostKeys() {}

  /** Longest host key accepted, in UTF-8 bytes; DNS names are at most 253 characters. */
  public static final int MAX_HOST_KEY_BYTES = 1024;
  /** Partitions are stored as an unsigned 16-bit number. */
  public static final int MAX_PARTITIONS = Partitions.MAX;

  /**
   * The host key's UTF-8 bytes, after checking it can be stored: not empty, no NUL, not too
   * long, and text UTF-8 can hold. An unpaired surrogate became '?' on disk, so a host read back
   * had another key than the one offers used, and its queue was deactivated with URLs in it.
   */
  public static byte[] utf8(String hostKey) {
    checkArgument(!hostKey.isEmpty(), "host key must not be empty");
    for (int i = 0; i < hostKey.length(); i++) {
      char c = hostKey.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < hostKey.length() && Character.isLowSurrogate(hostKey.charAt(i + 1))) {
        i++;
        continue;
      }
      checkArgument(!Character.isSurrogate(c), "host key (%s) has an unpaired surrogate at %s: not text",
          hostKey.substring(0, Math.min(40, hostKey.length())), i);
    }
    byte[] bytes = hostKey.getBytes(StandardCharsets.UTF_8);
    checkArgument(bytes.length <= MAX_HOST_KEY_BYTES, "host key (%s...) is %s UTF-8 bytes, more than %s",
        hostKey.substring(0, Math.min(40, hostKey.length())), bytes.length, MAX_HOST_KEY_BYTES);
    for (byte b : bytes) {
      // The queue key ends a host key with 0x00, so one host's queue stays one key range.
      checkArgument(b != 0, "host key (%s) must not contain a NUL character", hostKey);
    }
    return bytes;
  }

  /** The partition of a host: {@link Partitions#ofUtf8}. */
  public static int partition(byte[] hostKeyUtf8, int partitions) {
    return Partitions.ofUtf8(hostKeyUtf8, partitions);
  }
}
