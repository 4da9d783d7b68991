package dev.crawler.record;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A channel over a stream that an interrupt does not close. Those of
 * {@link java.nio.channels.Channels} and {@link java.nio.channels.FileChannel} are interruptible:
 * an interrupt of the thread using one closes it. A stop interrupts the fetch workers still
 * running at the end of its grace time, and one of them caught writing its records would close
 * the WARC file under every other worker: the clean stop would end as a failure. The WARC file is
 * opened with {@link java.nio.file.Files#newOutputStream}, which JDK 17 and 25 do not close on an
 * interrupt (the crawl log is written the same way), and written through {@link #writable}.
 * jwarc encodes records through channels we hand it, in memory ({@link RecordEncoder}): those
 * are these too. Made with {@link java.nio.channels.Channels}, an interrupt landing while a
 * worker encodes would close its encoder's channel for good, and every record that later borrows
 * that pooled encoder would fail.
 */
final class StreamChannels {
  private StreamChannels() {}

  /** The parts one after another, read from memory. */
  static ReadableByteChannel readable(byte[]... parts) {
    return new ReadableByteChannel() {
      private int part;
      private int offset;
      private boolean open = true;

      @Override
      public int read(ByteBuffer dst) {
        while (part < parts.length && offset == parts[part].length) {
          part++;
          offset = 0;
        }
        if (part == parts.length) {
          return -1;
        }
        int n = Math.min(dst.remaining(), parts[part].length - offset);
        dst.put(parts[part], offset, n);
        offset += n;
        return n;
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() {
        open = false;
      }
    };
  }

  static WritableByteChannel writable(OutputStream out) {
    return new WritableByteChannel() {
      private boolean open = true;

      @Override
      public int write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        if (src.hasArray()) {
          out.write(src.array(), src.arrayOffset() + src.position(), n);
          src.position(src.limit());
        } else {
          byte[] copy = new byte[n];
          src.get(copy);
          out.write(copy);
        }
        return n;
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() throws IOException {
        open = false;
        out.close();
      }
    };
  }
}
