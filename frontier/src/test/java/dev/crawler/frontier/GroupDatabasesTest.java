package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.internal.FrontierStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With more than one partition group, each group has a RocksDB database of its own. */
class GroupDatabasesTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(1_000_000);

  FrontierOptions options(int partitions) {
    return FrontierOptions.builder().clock(clock).defaultDelay(Duration.ZERO).partitions(partitions).build();
  }

  @Test
  void eachGroupHasADatabaseOfItsOwnAndEveryUrlSurvivesAReopen() throws Exception {
    List<String> offered;
    try (Frontier f = Frontier.open(dir, options(4))) {
      offered = FrontierTest.offerToHosts(f, 40, 3);
    }
    assertThat(groupFolders()).containsExactly("group-01", "group-02", "group-03");
    try (Frontier f = Frontier.open(dir, options(4))) {
      assertThat(f.stats().queuedUrls()).isEqualTo(120);
      assertThat(FrontierTest.drainAdvancingClock(f, clock, 3)).containsExactlyInAnyOrderElementsOf(offered);
      assertThat(f.stats().queuedUrls()).isZero();
    }
  }

  @Test
  void aMissingGroupDatabaseIsAClearErrorNotAnEmptyGroup() throws Exception {
    try (Frontier f = Frontier.open(dir, options(4))) {
      FrontierTest.offerToHosts(f, 40, 3);
    }
    deleteRecursively(dir.resolve("group-02"));
    assertThatThrownBy(() -> Frontier.open(dir, options(4)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("group-02")
        .hasMessageContaining("missing or damaged");
  }

  @Test
  void aGroupDatabaseInAnotherGroupsFolderIsRefused() throws Exception {
    Frontier.open(dir, options(4)).close();
    Files.move(dir.resolve("group-01"), dir.resolve("swap"));
    Files.move(dir.resolve("group-02"), dir.resolve("group-01"));
    Files.move(dir.resolve("swap"), dir.resolve("group-02"));
    assertThatThrownBy(() -> Frontier.open(dir, options(4)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("holds group 2 of 4, this code expects group 1 of 4 there");
  }

  /** Written before groups had databases of their own (format 1): all groups stay in the one database. */
  @Test
  void aStoreWithAllGroupsInOneDatabaseKeepsThemThere() throws Exception {
    FrontierStore.open(dir, false, 8 << 20, 8 << 20, 4, 1).close();
    List<String> offered;
    try (Frontier f = Frontier.open(dir, options(4))) {
      offered = FrontierTest.offerToHosts(f, 40, 3);
    }
    try (Frontier f = Frontier.open(dir, options(4))) {
      assertThat(FrontierTest.drainAdvancingClock(f, clock, 3)).containsExactlyInAnyOrderElementsOf(offered);
    }
    assertThat(groupFolders()).isEmpty();
  }

  @Test
  void aStoreWithGroupDatabasesRefusesAnotherPartitionCount() {
    Frontier.open(dir, options(4)).close();
    for (int partitions : new int[] {1, 8}) {
      assertThatThrownBy(() -> Frontier.open(dir, options(partitions)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("written with 4 partitions, the options ask for " + partitions);
    }
  }

  /**
   * A crash while a new store is being created, after its group databases exist and before the
   * root's format record is written (the last step), leaves group folders beside a root with no
   * format: the next open takes it as new, and the group databases it finds as its own.
   */
  @Test
  void groupDatabasesMadeBeforeACrashAreTakenUpByTheNextOpen() throws Exception {
    Path first = dir.resolve("first");
    Frontier.open(first, options(4)).close();
    Path crashed = dir.resolve("crashed");
    Files.createDirectories(crashed);
    for (String group : List.of("group-01", "group-02", "group-03")) {
      copyRecursively(first.resolve(group), crashed.resolve(group));
    }
    List<String> offered;
    try (Frontier f = Frontier.open(crashed, options(4))) {
      assertThat(f.stats().queuedUrls()).isZero();
      offered = FrontierTest.offerToHosts(f, 20, 2);
    }
    try (Frontier f = Frontier.open(crashed, options(4))) {
      assertThat(FrontierTest.drainAdvancingClock(f, clock, 3)).containsExactlyInAnyOrderElementsOf(offered);
    }
  }

  @Test
  void oneGroupHasOnlyTheRootDatabase() throws Exception {
    try (Frontier f = Frontier.open(dir, options(1))) {
      FrontierTest.offerToHosts(f, 5, 2);
    }
    assertThat(groupFolders()).isEmpty();
  }

  private List<String> groupFolders() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static void copyRecursively(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
