package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;

import dev.crawler.intake.AdmittedUrl;
import dev.crawler.url.CrawlUrl;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An admitted URL as a record value of the crawl's URL topic. The record's key is the URL's
 * queue key, so the value leaves it out. Layout, version 1:
 *
 * <pre>
 * [version u8 = 1][depth uvarint][redirect hops u8]
 * [url length uvarint][url UTF-8][via length uvarint][via UTF-8]
 * </pre>
 *
 * A seed has no via: its length is 0 (an empty via means none, as in the frontier). Varints
 * because depths are small and URLs short: a link of 60 characters found on a page of 60 takes
 * 125 bytes, before the batch's compression finds what a page's links share.
 */
public final class UrlRecord {
  private UrlRecord() {}

  public static final byte VERSION = 1;

  public static byte[] encode(AdmittedUrl url) {
    byte[] link = url.url().url().getBytes(StandardCharsets.UTF_8);
    byte[] via = url.via() == null ? new byte[0] : url.via().getBytes(StandardCharsets.UTF_8);
    checkArgument(url.redirectHops() >= 0 && url.redirectHops() <= 255, "redirect hops (%s) must be in [0, 255]",
        url.redirectHops());
    checkArgument(url.depth() >= 0, "depth (%s) must be >= 0", url.depth());
    ByteBuffer b = ByteBuffer.allocate(1 + varintSize(url.depth()) + 1
        + varintSize(link.length) + link.length
        + varintSize(via.length) + via.length);
    b.put(VERSION);
    putVarint(url.depth(), b);
    b.put((byte) url.redirectHops());
    putVarint(link.length, b);
    b.put(link);
    putVarint(via.length, b);
    b.put(via);
    return b.array();
  }

  /**
   * The admitted URL of a record: its key and value.
   *
   * @throws IllegalArgumentException if the value is not a URL record of a known version
   */
  public static AdmittedUrl decode(String queueKey, byte[] value) {
    checkArgument(value != null && value.length > 0, "URL record of %s is empty", queueKey);
    checkArgument(value[0] == VERSION, "URL record version (%s) is not %s", value[0], VERSION);
    ByteBuffer b = ByteBuffer.wrap(value, 1, value.length - 1);
    try {
      int depth = getVarint(b);
      checkArgument(depth >= 0, "URL record of %s has a negative depth", queueKey);
      int hops = b.get() & 0xFF;
      String link = utf8(b, getVarint(b));
      String via = utf8(b, getVarint(b));
      checkArgument(!b.hasRemaining(), "URL record of %s has %s bytes past its end", queueKey, b.remaining());
      CrawlUrl url = CrawlUrl.of(link);
      checkArgument(url != null, "URL record of %s holds no http(s) URL: %s", queueKey, link);
      return new AdmittedUrl(url, queueKey, depth, via.isEmpty() ? null : via, hops);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("URL record of " + queueKey + " is cut short (" + value.length + " bytes)");
    }
  }

  /**
   * The admitted URL of a consumed record.
   *
   * @throws IllegalStateException naming the record's partition and offset if it is not a URL record
   */
  static AdmittedUrl decode(ConsumerRecord<String, byte[]> r) {
    try {
      return decode(r.key(), r.value());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("record " + r.topic() + "-" + r.partition() + "@" + r.offset()
          + " is not a URL record: " + e.getMessage(), e);
    }
  }

  private static String utf8(ByteBuffer b, int length) {
    if (length < 0 || length > b.remaining()) {
      throw new BufferUnderflowException();
    }
    String s = new String(b.array(), b.arrayOffset() + b.position(), length, StandardCharsets.UTF_8);
    b.position(b.position() + length);
    return s;
  }

  /** Unsigned LEB128 (as protobuf and Kafka's own records): 7 bits a byte, low first, high bit = more. */
  static int varintSize(int v) {
    int size = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      size++;
    }
    return size;
  }

  static void putVarint(int v, ByteBuffer b) {
    while ((v & ~0x7F) != 0) {
      b.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    b.put((byte) v);
  }

  static int getVarint(ByteBuffer b) {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int x = b.get();
      v |= (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint longer than 5 bytes");
  }
}
