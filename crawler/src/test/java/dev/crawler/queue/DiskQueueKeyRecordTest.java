package dev.crawler.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue keys decided by address outlive the process: through a close and a reopen. */
class DiskQueueKeyRecordTest {
  @TempDir Path dir;

  @Test
  void keysAndByNameDecisionsSurviveACloseAndReopen() throws Exception {
    try (DiskQueueKeyRecord record = DiskQueueKeyRecord.open(dir.resolve("queue-keys"))) {
      assertThat(record.get("www.example.com")).isNull();
      record.put("www.example.com", "192.0.2.7");
      record.put("flaky.example.com", AddressQueueKeys.BY_NAME);
      record.put("six.example.com", "2001:db8::1");
    }
    try (DiskQueueKeyRecord record = DiskQueueKeyRecord.open(dir.resolve("queue-keys"))) {
      assertThat(record.get("www.example.com")).isEqualTo("192.0.2.7");
      assertThat(record.get("flaky.example.com")).isEqualTo(AddressQueueKeys.BY_NAME);
      assertThat(record.get("six.example.com")).isEqualTo("2001:db8::1");
      assertThat(record.get("other.example.com")).isNull();
    }
  }

  @Test
  void aLookupThatEndsAfterTheCloseIsRefusedNotWrittenToAClosedStore() throws Exception {
    DiskQueueKeyRecord record = DiskQueueKeyRecord.open(dir.resolve("queue-keys"));
    record.close();
    record.close();   // twice is harmless
    assertThatThrownBy(() -> record.put("late.example.com", "192.0.2.9")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> record.get("late.example.com")).isInstanceOf(IllegalStateException.class);
  }
}
