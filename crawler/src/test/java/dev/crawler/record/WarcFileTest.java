package dev.crawler.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarcFileTest {
  @TempDir Path dir;

  /** A FileChannel would be closed by the interrupt (ClosedByInterruptException), and the file lost to every writer. */
  @Test
  void anInterruptOfTheWritingThreadDoesNotCloseTheFile() throws IOException {
    Path path = dir.resolve("crawl-1.warc.gz");
    WarcFile file = WarcFile.create(path, WarcFile.Opener.FILES);
    Thread.currentThread().interrupt();
    try {
      file.append(ByteBuffer.wrap("first ".getBytes(StandardCharsets.US_ASCII)));
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is still there for the caller").isTrue();
    }
    file.append(ByteBuffer.wrap("second".getBytes(StandardCharsets.US_ASCII)));
    file.finish();
    assertThat(Files.readString(path)).isEqualTo("first second");
    assertThat(file.size()).isEqualTo(12);
  }
}
