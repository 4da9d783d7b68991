package dev.crawler.intake;

import dev.crawler.dedup.UrlNormalization;
import dev.crawler.dedup.UrlNormalizer;
import dev.crawler.url.FetchableUrls;

/**
 * The normalizer's answers for recently seen raw links, so the links a site repeats on every
 * page (navigation bars, footers: most of a page's links) are normalized once, not once a page.
 *
 * <p>Direct-mapped, like a CPU cache: the raw string's hash picks one slot, which holds the last
 * raw string that landed there and its answer. A lookup is a hash, one array read and one string
 * comparison; a collision only costs a normalization. Lock-free: a slot holds an immutable
 * pair, published through a plain array store (its fields are final), so a reader sees either
 * an old pair or a new one, never half of one. An answer is the normalizer's checked by
 * {@link FetchableUrls}, so a link is never queued that the HTTP client cannot fetch as it is.
 */
final class RecentNormalizations {
  private record Slot(String raw, UrlNormalization answer) {}

  private final UrlNormalizer normalizer;
  private final Slot[] slots;
  private final int mask;

  RecentNormalizations(UrlNormalizer normalizer, int slotsPowerOfTwo) {
    if (Integer.bitCount(slotsPowerOfTwo) != 1) {
      throw new IllegalArgumentException("slots (" + slotsPowerOfTwo + ") must be a power of two");
    }
    this.normalizer = normalizer;
    this.slots = new Slot[slotsPowerOfTwo];
    this.mask = slotsPowerOfTwo - 1;
  }

  UrlNormalization normalize(String raw) {
    int h = raw.hashCode();
    int i = (h ^ (h >>> 16)) & mask;
    Slot slot = slots[i];
    if (slot != null && slot.raw.equals(raw)) {
      return slot.answer;
    }
    UrlNormalization answer = FetchableUrls.confirm(normalizer.normalize(raw));
    slots[i] = new Slot(raw, answer);
    return answer;
  }
}
