package dev.crawler.robots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskRobotsStoreTest {
  @TempDir Path dir;

  static final Instant FETCHED = Instant.parse("2026-12-01T10:00:00Z");
  static final StoredRobots FOUND = new StoredRobots(HostRobots.Availability.FOUND, "https://a.test/robots.txt",
      "text/plain", "User-agent: *\nDisallow: /x/\n".getBytes(StandardCharsets.UTF_8), FETCHED);
  static final StoredRobots ALLOW_ALL = new StoredRobots(HostRobots.Availability.ALLOW_ALL,
      "http://b.test:8080/robots.txt", null, new byte[0], FETCHED);

  /** The value layout is written down in StoredRobots; this pins it, byte for byte. */
  @Test
  void theValueLayoutIsPinned() {
    byte[] value = new StoredRobots(HostRobots.Availability.FOUND, "u", "t", new byte[] {'b'},
        Instant.ofEpochMilli(0x0102030405060708L)).encode();
    assertThat(HexFormat.of().formatHex(value)).isEqualTo("01" + "0102030405060708" + "00" + "0001" + "75" + "0001" + "74" + "62");
    assertThat(HexFormat.of().formatHex(ALLOW_ALL.encode())).startsWith("01" + HexFormat.of().toHexDigits(FETCHED.toEpochMilli()) + "01");
  }

  @Test
  void answersComeBackAfterACloseAndReopen() throws Exception {
    try (DiskRobotsStore store = DiskRobotsStore.open(dir.resolve("robots"))) {
      store.put("https://a.test:443", FOUND);
      store.put("http://b.test:8080", ALLOW_ALL);
    }
    try (DiskRobotsStore store = DiskRobotsStore.open(dir.resolve("robots"))) {
      StoredRobots a = store.get("https://a.test:443").orElseThrow();
      assertThat(a.availability()).isEqualTo(HostRobots.Availability.FOUND);
      assertThat(a.url()).isEqualTo(FOUND.url());
      assertThat(a.contentType()).isEqualTo("text/plain");
      assertThat(a.body()).isEqualTo(FOUND.body());
      assertThat(a.fetchedAt()).isEqualTo(FETCHED);
      StoredRobots b = store.get("http://b.test:8080").orElseThrow();
      assertThat(b.availability()).isEqualTo(HostRobots.Availability.ALLOW_ALL);
      assertThat(b.contentType()).isNull();
      assertThat(store.get("http://c.test:80")).isEmpty();
    }
  }

  @Test
  void aNewerAnswerReplacesTheOlder() throws Exception {
    try (DiskRobotsStore store = DiskRobotsStore.open(dir.resolve("robots"))) {
      store.put("https://a.test:443", FOUND);
      store.put("https://a.test:443", ALLOW_ALL);
      assertThat(store.get("https://a.test:443").orElseThrow().availability())
          .isEqualTo(HostRobots.Availability.ALLOW_ALL);
    }
  }

  @Test
  void badBytesAreRefusedByTheLayoutAndReadAsNothing() {
    assertThatThrownBy(() -> StoredRobots.decode(new byte[] {1, 0, 0})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StoredRobots.decode(new byte[] {9})).hasMessageContaining("layout version 9");
    byte[] badAvailability = FOUND.encode();
    badAvailability[9] = 7;
    assertThatThrownBy(() -> StoredRobots.decode(badAvailability)).hasMessageContaining("availability 7");
  }

  @Test
  void aDamagedStoreIsSetAsideAndANewOneStarted() throws Exception {
    Path robots = dir.resolve("robots");
    try (DiskRobotsStore store = DiskRobotsStore.open(robots)) {
      store.put("https://a.test:443", FOUND);
    }
    // Damage: every file of the database replaced by garbage.
    try (Stream<Path> files = Files.list(robots)) {
      for (Path f : files.toList()) {
        Files.write(f, "not a rocksdb file".getBytes(StandardCharsets.UTF_8));
      }
    }
    try (DiskRobotsStore store = DiskRobotsStore.open(robots)) {
      assertThat(store.get("https://a.test:443")).as("the new store starts empty").isEmpty();
      store.put("https://a.test:443", ALLOW_ALL);
      assertThat(store.get("https://a.test:443")).isPresent();
    }
    try (Stream<Path> siblings = Files.list(dir)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("robots.damaged-"));
    }
  }

  /** Only damage is set aside: a store another process holds open (its LOCK) is an error, and stays where it is. */
  @Test
  void aStoreThatCannotBeOpenedForAnotherReasonIsLeftInPlace() throws Exception {
    Path robots = dir.resolve("robots");
    try (DiskRobotsStore first = DiskRobotsStore.open(robots)) {
      first.put("https://a.test:443", FOUND);
      assertThatThrownBy(() -> DiskRobotsStore.open(robots)).isInstanceOf(java.io.IOException.class);
    }
    try (Stream<Path> siblings = Files.list(dir)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).containsExactly("robots");
    }
    try (DiskRobotsStore again = DiskRobotsStore.open(robots)) {
      assertThat(again.get("https://a.test:443")).isPresent();
    }
  }
}
