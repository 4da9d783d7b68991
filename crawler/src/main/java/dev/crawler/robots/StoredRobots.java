package dev.crawler.robots;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * A robots.txt answer as {@link RobotsStore} keeps it on disk: what was fetched, not what it was
 * parsed into, so that a newer parser reads old entries, and a host's rules come back by parsing
 * the same bytes again. Only lasting answers are kept: {@code FOUND} and {@code ALLOW_ALL}
 * (an unavailable robots.txt is asked for again within minutes).
 *
 * <p>Value, big-endian:
 * <pre>
 *   offset  size  field
 *        0     1  layout version (1)
 *        1     8  fetched at, epoch millis
 *        9     1  availability: 0 FOUND, 1 ALLOW_ALL
 *       10     2  n, then n bytes: the robots.txt URL answered (after redirects), UTF-8
 *     12+n     2  m, then m bytes: its Content-Type, UTF-8 (m = 0: none)
 *   14+n+m  rest  the body as fetched (FOUND; at most 512 KiB); empty for ALLOW_ALL
 * </pre>
 *
 * @param url the robots.txt URL that answered, after redirects
 * @param contentType its Content-Type, null if none
 * @param body the robots.txt as fetched; empty for {@code ALLOW_ALL}
 */
public record StoredRobots(HostRobots.Availability availability, String url, String contentType, byte[] body,
    Instant fetchedAt) {
  static final int LAYOUT_VERSION = 1;
  private static final int MAX_TEXT = 0xFFFF;

  public StoredRobots {
    requireNonNull(availability, "availability");
    checkArgument(availability != HostRobots.Availability.UNAVAILABLE, "an unavailable robots.txt is not stored");
    requireNonNull(url, "url");
    requireNonNull(body, "body");
    requireNonNull(fetchedAt, "fetchedAt");
  }

  /** Null if a field does not fit its length prefix (a URL of 64 KiB): such an answer is simply not kept. */
  byte[] encode() {
    byte[] urlBytes = url.getBytes(StandardCharsets.UTF_8);
    byte[] typeBytes = contentType == null ? new byte[0] : contentType.getBytes(StandardCharsets.UTF_8);
    if (urlBytes.length > MAX_TEXT || typeBytes.length > MAX_TEXT) {
      return null;
    }
    return ByteBuffer.allocate(14 + urlBytes.length + typeBytes.length + body.length)
        .put((byte) LAYOUT_VERSION)
        .putLong(fetchedAt.toEpochMilli())
        .put((byte) (availability == HostRobots.Availability.FOUND ? 0 : 1))
        .putShort((short) urlBytes.length).put(urlBytes)
        .putShort((short) typeBytes.length).put(typeBytes)
        .put(body)
        .array();
  }

  /** @throws IllegalArgumentException if the bytes are not a value of this layout */
  static StoredRobots decode(byte[] value) {
    try {
      ByteBuffer in = ByteBuffer.wrap(value);
      int version = in.get();
      checkArgument(version == LAYOUT_VERSION, "layout version %s, not %s", version, LAYOUT_VERSION);
      Instant fetchedAt = Instant.ofEpochMilli(in.getLong());
      int availability = in.get();
      checkArgument(availability == 0 || availability == 1, "availability %s", availability);
      String url = text(in);
      String contentType = text(in);
      byte[] body = Arrays.copyOfRange(value, in.position(), value.length);
      return new StoredRobots(availability == 0 ? HostRobots.Availability.FOUND : HostRobots.Availability.ALLOW_ALL,
          url, contentType.isEmpty() ? null : contentType, body, fetchedAt);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("cut short at " + value.length + " bytes", e);
    }
  }

  private static String text(ByteBuffer in) {
    byte[] bytes = new byte[Short.toUnsignedInt(in.getShort())];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
