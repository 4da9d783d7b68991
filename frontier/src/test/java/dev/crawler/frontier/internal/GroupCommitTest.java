package dev.crawler.frontier.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.rocks.RocksLibrary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

class GroupCommitTest {
  static {
    RocksLibrary.load();
  }

  /** A sink that keeps what each write held, and can hold the first write until told to go on. */
  static final class RecordingSink implements GroupCommit.Sink {
    final List<String> writes = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch firstWriteStarted = new CountDownLatch(1);
    final CountDownLatch releaseFirstWrite = new CountDownLatch(1);
    volatile boolean fail;

    @Override
    public void write(WriteBatch batch) throws RocksDBException {
      if (fail) {
        throw new RocksDBException("disk full");
      }
      if (firstWriteStarted.getCount() > 0) {
        firstWriteStarted.countDown();
        try {
          releaseFirstWrite.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      writes.add(keys(batch));
    }

    /** The keys k0..k9 a batch holds, in the order staged (they show in its serialized form). */
    static String keys(WriteBatch batch) throws RocksDBException {
      String data = new String(batch.data(), StandardCharsets.ISO_8859_1);
      StringBuilder keys = new StringBuilder();
      for (int at = data.indexOf("key-"); at >= 0; at = data.indexOf("key-", at + 1)) {
        keys.append(keys.isEmpty() ? "" : " ").append(data, at + 4, at + 5);
      }
      return keys.toString();
    }
  }

  static GroupCommit.Changes put(int n) {
    return batch -> batch.put(("key-" + n).getBytes(StandardCharsets.US_ASCII), new byte[] {1});
  }

  @Test
  void batchesStagedDuringAWriteAreWrittenTogetherByTheNextWaiterInTheOrderStaged() throws Exception {
    RecordingSink sink = new RecordingSink();
    try (GroupCommit commits = new GroupCommit(sink)) {
      long first = commits.stage(put(1));
      Thread leader = new Thread(() -> commits.awaitWritten(first));
      leader.start();
      assertThat(sink.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();

      // While the first write is under way, three more operations stage and wait.
      List<Thread> followers = new ArrayList<>();
      for (int n = 2; n <= 4; n++) {
        long ticket = commits.stage(put(n));
        Thread follower = new Thread(() -> commits.awaitWritten(ticket));
        follower.start();
        followers.add(follower);
      }
      sink.releaseFirstWrite.countDown();
      leader.join();
      for (Thread follower : followers) {
        follower.join();
      }

      assertThat(sink.writes).containsExactly("1", "2 3 4");
      assertThat(commits.writes()).isEqualTo(2);
    }
  }

  @Test
  void waitingForATicketAlreadyWrittenWritesNothing() {
    RecordingSink sink = new RecordingSink();
    sink.releaseFirstWrite.countDown();
    try (GroupCommit commits = new GroupCommit(sink)) {
      long a = commits.stage(put(1));
      long b = commits.stage(put(2));
      commits.awaitWritten(b);
      commits.awaitWritten(a);
      commits.flush();
      assertThat(sink.writes).containsExactly("1 2");
    }
  }

  @Test
  void closeWritesWhatIsStagedAndNobodyWaitedFor() {
    RecordingSink sink = new RecordingSink();
    sink.releaseFirstWrite.countDown();
    GroupCommit commits = new GroupCommit(sink);
    long ticket = commits.stage(put(5));
    commits.close();
    assertThat(sink.writes).containsExactly("5");
    commits.awaitWritten(ticket);   // a waiter that comes late finds its ticket written
    assertThatThrownBy(() -> commits.stage(put(6))).hasMessageContaining("closed");
  }

  @Test
  void failedWriteFailsItsWaitersAndEveryLaterStage() {
    RecordingSink sink = new RecordingSink();
    sink.releaseFirstWrite.countDown();
    sink.fail = true;
    try (GroupCommit commits = new GroupCommit(sink)) {
      long ticket = commits.stage(put(1));
      assertThatThrownBy(() -> commits.awaitWritten(ticket)).hasMessageContaining("disk full");
      assertThatThrownBy(() -> commits.awaitWritten(ticket)).hasMessageContaining("failed write");
      assertThatThrownBy(() -> commits.stage(put(2))).hasMessageContaining("failed write");
    }
  }
}
