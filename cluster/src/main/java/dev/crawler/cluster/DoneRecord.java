package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import dev.crawler.dedup.UrlFingerprint;
import dev.crawler.frontier.FetchOutcome;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A URL whose fetch ended, as a record of the crawl's done topic, keyed (like its URL record)
 * by its queue key, so it lands in the same partition. Layout, version 1, 18 bytes:
 *
 * <pre>
 * [version u8 = 1][outcome u8: 1 FETCHED, 2 FAILED, 3 SKIPPED][fingerprint 16 bytes, high half first, big-endian]
 * </pre>
 *
 * The URL's fingerprint rather than the URL: a replay only has to tell URL-seen that the URL is
 * taken care of, and URL-seen keeps fingerprints, so the record is what it needs in 18 bytes
 * instead of a URL's 60 or so; the URL itself is in the crawl log.
 *
 * <p>Only outcomes that take a URL out of its queue are done: a RETRY_AFTER or DEFERRED URL is
 * still queued, and is refused here.
 *
 * @param queueKey the record's key, not part of the value
 */
public record DoneRecord(String queueKey, UrlFingerprint fingerprint, FetchOutcome.Kind outcome) {
  public static final byte VERSION = 1;
  static final int SIZE = 18;

  public DoneRecord {
    checkNotNull(queueKey, "queueKey");
    checkNotNull(fingerprint, "fingerprint");
    checkNotNull(outcome, "outcome");
    code(outcome);
  }

  /** The done record of a normalized URL, as the frontier holds it. */
  public static DoneRecord of(String queueKey, String url, FetchOutcome.Kind outcome) {
    return new DoneRecord(queueKey, UrlFingerprint.of(url), outcome);
  }

  public byte[] value() {
    byte[] value = new byte[SIZE];
    value[0] = VERSION;
    value[1] = code(outcome);
    System.arraycopy(fingerprint.toBytes(), 0, value, 2, 16);
    return value;
  }

  /**
   * The done record of a record's key and value.
   *
   * @throws IllegalArgumentException if the value is not a done record of a known version
   */
  public static DoneRecord decode(String queueKey, byte[] value) {
    checkArgument(value != null && value.length > 0, "done record of %s is empty", queueKey);
    checkArgument(value[0] == VERSION, "done record version (%s) is not %s", value[0], VERSION);
    checkArgument(value.length == SIZE, "done record of %s has %s bytes, not %s", queueKey, value.length, SIZE);
    return new DoneRecord(queueKey, UrlFingerprint.fromBytes(Arrays.copyOfRange(value, 2, SIZE)), kind(value[1]));
  }

  /**
   * The done record of a consumed record.
   *
   * @throws IllegalStateException naming the record's partition and offset if it is not a done record
   */
  static DoneRecord decode(ConsumerRecord<String, byte[]> r) {
    try {
      return decode(r.key(), r.value());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("record " + r.topic() + "-" + r.partition() + "@" + r.offset()
          + " is not a done record: " + e.getMessage(), e);
    }
  }

  /** Codes written, never ordinals: reordering the enum must not change what a stored record means. */
  private static byte code(FetchOutcome.Kind kind) {
    return switch (kind) {
      case FETCHED -> 1;
      case FAILED -> 2;
      case SKIPPED -> 3;
      case RETRY_AFTER, DEFERRED -> throw new IllegalArgumentException(
          "outcome " + kind + " leaves the URL queued: it is not done");
    };
  }

  private static FetchOutcome.Kind kind(byte code) {
    return switch (code) {
      case 1 -> FetchOutcome.Kind.FETCHED;
      case 2 -> FetchOutcome.Kind.FAILED;
      case 3 -> FetchOutcome.Kind.SKIPPED;
      default -> throw new IllegalArgumentException("done record outcome (" + code + ") is not 1, 2 or 3");
    };
  }
}
