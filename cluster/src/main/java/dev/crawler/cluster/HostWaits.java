package dev.crawler.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the hosts of a partition still had to wait when the partition left its owner: for each
 * host whose next request was not allowed yet, how long it was still to wait. The next owner
 * holds each host that long from when it reads them, which is later: the old owner writes them
 * once its fetches have ended, and the group gives the partition on only after. Durations, not
 * times, so the nodes' clocks need not agree.
 *
 * <p>Written as chunks, consecutive records of the partition in the hand-over topic. Layout of a
 * chunk, version 1:
 * <pre>
 * [version u8 = 1][hand-over id i64][done offset i64][every host's wait in millis i64][chunk index i32][entries i32]
 * then per entry: [queue key length u16][queue key, UTF-8][wait in millis i64]
 * </pre>
 *
 * @param id tells one hand-over's chunks from another's
 * @param doneOffset the end of the partition's done records at the hand-over: a next owner that
 *     finds more knows that an owner since fetched and did not hand over (it was killed, or lost
 *     the partition), so these waits are not the latest
 * @param everyHostMillis what every host of the partition waits, in milliseconds, 0 if nothing:
 *     what was left of a hold on them all when the partition came to its last owner
 * @param waitMillis per queue key, the wait left, in milliseconds, above 0
 */
public record HostWaits(long id, long doneOffset, long everyHostMillis, Map<String, Long> waitMillis) {
  public static final byte VERSION = 1;
  private static final int HEADER = 1 + 8 + 8 + 8 + 4 + 4;
  /** Queue keys are host names or domains; longer is not one. */
  private static final int MAX_KEY_BYTES = 0xFFFF;

  public HostWaits {
    checkNotNull(waitMillis, "waitMillis");
    checkArgument(doneOffset >= 0, "doneOffset (%s) must be >= 0", doneOffset);
    checkArgument(everyHostMillis >= 0, "everyHostMillis (%s) must be >= 0", everyHostMillis);
    waitMillis.forEach((key, wait) -> checkArgument(wait != null && wait > 0, "the wait of %s (%s) must be > 0", key,
        wait));
    waitMillis = Map.copyOf(waitMillis);
  }

  /** One record of a hand-over. */
  public record Chunk(long id, long doneOffset, long everyHostMillis, int index, Map<String, Long> waitMillis) {}

  /** The chunks to write, each at most {@code maxBytes} (one at least, empty if no host waits). */
  public List<byte[]> chunks(int maxBytes) {
    List<byte[]> chunks = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    List<Long> waits = new ArrayList<>();
    int bytes = HEADER;
    for (Map.Entry<String, Long> e : waitMillis.entrySet()) {
      byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
      checkArgument(key.length <= MAX_KEY_BYTES, "queue key of %s bytes", key.length);
      int entry = 2 + key.length + 8;
      checkArgument(HEADER + entry <= maxBytes, "an entry of %s bytes does not fit a chunk of %s", entry, maxBytes);
      if (bytes + entry > maxBytes) {
        chunks.add(encode(chunks.size(), keys, waits, bytes));
        keys.clear();
        waits.clear();
        bytes = HEADER;
      }
      keys.add(key);
      waits.add(e.getValue());
      bytes += entry;
    }
    chunks.add(encode(chunks.size(), keys, waits, bytes));
    return chunks;
  }

  private byte[] encode(int index, List<byte[]> keys, List<Long> waits, int bytes) {
    ByteBuffer b = ByteBuffer.allocate(bytes);
    b.put(VERSION).putLong(id).putLong(doneOffset).putLong(everyHostMillis).putInt(index).putInt(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      b.putShort((short) keys.get(i).length).put(keys.get(i)).putLong(waits.get(i));
    }
    return b.array();
  }

  /**
   * The chunk a record holds.
   *
   * @throws IllegalArgumentException if it is not a hand-over chunk of a known version
   */
  public static Chunk decode(byte[] value) {
    checkArgument(value != null && value.length >= HEADER, "a hand-over record holds at least %s bytes", HEADER);
    checkArgument(value[0] == VERSION, "hand-over record version (%s) is not %s", value[0], VERSION);
    ByteBuffer b = ByteBuffer.wrap(value, 1, value.length - 1);
    try {
      long id = b.getLong();
      long doneOffset = b.getLong();
      long everyHost = b.getLong();
      int index = b.getInt();
      int entries = b.getInt();
      checkArgument(index >= 0 && entries >= 0, "hand-over chunk index %s, entries %s", index, entries);
      Map<String, Long> waits = new HashMap<>();
      for (int i = 0; i < entries; i++) {
        byte[] key = new byte[Short.toUnsignedInt(b.getShort())];
        b.get(key);
        waits.put(new String(key, StandardCharsets.UTF_8), b.getLong());
      }
      checkArgument(!b.hasRemaining(), "%s bytes after the last entry of a hand-over chunk", b.remaining());
      return new Chunk(id, doneOffset, everyHost, index, waits);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a hand-over chunk cut short", e);
    }
  }

  /**
   * The hand-over of its chunks, in order from index 0.
   *
   * @throws IllegalArgumentException if they are not one hand-over's, each once, from 0
   */
  public static HostWaits of(List<Chunk> chunks) {
    checkArgument(!chunks.isEmpty(), "a hand-over has one chunk at least");
    long id = chunks.get(0).id();
    Map<String, Long> waits = new HashMap<>();
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      checkArgument(c.id() == id && c.doneOffset() == chunks.get(0).doneOffset() && c.index() == i, "chunk %s of hand-over %s where chunk %s of %s was due", c.index(),
          c.id(), i, id);
      waits.putAll(c.waitMillis());
    }
    return new HostWaits(id, chunks.get(0).doneOffset(), chunks.get(0).everyHostMillis(), waits);
  }
}
