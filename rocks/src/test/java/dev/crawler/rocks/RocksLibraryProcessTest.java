package dev.crawler.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real child JVMs, each with an empty {@code java.io.tmpdir} of its own, open a RocksDB store and
 * are killed with SIGKILL, as the kernel or an operator would: what they leave behind is read
 * from the disk afterwards.
 */
class RocksLibraryProcessTest {
  @TempDir Path dir;

  /** The control: the check above fails for RocksDB's own loader. */
  @Test
  void rocksDbsOwnLoaderLeavesItsCopyInTheTmpdirOfAKilledProcess() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Child child = Child.start(dir.resolve("db"), tmp, dir.resolve("cache"), true);
    child.kill();
    assertThat(libraryFilesIn(tmp)).hasSize(1);
    assertThat(dir.resolve("cache")).doesNotExist();
  }

  @Test
  void aKilledProcessLeavesNoLibraryInItsTmpdirAndASecondLoadsTheFileTheFirstUnpacked() throws Exception {
    Path cache = dir.resolve("cache");
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Child first = Child.start(dir.resolve("db"), tmp, cache, false);
    first.kill();
    assertThat(libraryFilesIn(tmp)).as("library files left in java.io.tmpdir").isEmpty();
    assertThat(first.loadedFrom).startsWith(cache.toString());
    assertThat(libraryFilesIn(cache.resolve("rocksdb-" + RocksLibrary.version()))).hasSize(1);
    Path library = Path.of(first.loadedFrom);
    BasicFileAttributes unpacked = Files.readAttributes(library, BasicFileAttributes.class);

    Child second = Child.start(dir.resolve("db"), tmp, cache, false);
    second.kill();
    assertThat(second.loadedFrom).isEqualTo(first.loadedFrom);
    // A new copy would be a new file renamed into place: another inode.
    BasicFileAttributes reused = Files.readAttributes(library, BasicFileAttributes.class);
    assertThat(reused.fileKey()).isNotNull().isEqualTo(unpacked.fileKey());
    assertThat(reused.lastModifiedTime()).isEqualTo(unpacked.lastModifiedTime());
    assertThat(libraryFilesIn(tmp)).isEmpty();
  }

  @Test
  void twoProcessesStartingAtOnceBothLoadOneWholeCopy() throws Exception {
    Path cache = dir.resolve("cache");
    List<Child.Started> starting = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path tmp = Files.createDirectories(dir.resolve("tmp-" + i));
      starting.add(Child.launch(dir.resolve("db-" + i), tmp, cache, false));
    }
    for (Child.Started started : starting) {
      Child child = started.awaitOpen();
      child.kill();
      assertThat(child.loadedFrom).startsWith(cache.toString());
    }
    Path folder = cache.resolve("rocksdb-" + RocksLibrary.version());
    try (Stream<Path> files = Files.list(folder)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("one library and no part file left").hasSize(1).allMatch(name -> !name.endsWith(".part"));
    }
  }

  private static List<Path> libraryFilesIn(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(p -> p.getFileName().toString().startsWith("librocksdbjni")).toList();
    }
  }

  /** A child JVM that has opened its store, and the library file it says it loaded. */
  private static final class Child {
    final Process process;
    final String loadedFrom;

    private Child(Process process, String loadedFrom) {
      this.process = process;
      this.loadedFrom = loadedFrom;
    }

    record Started(Process process, BufferedReader out) {
      /** Waits for the child's {@code open} line; fails with its output if it ends first. */
      Child awaitOpen() throws IOException, InterruptedException {
        StringBuilder seen = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("open ")) {
            return new Child(process, line.substring("open ".length()));
          }
          seen.append(line).append('\n');
        }
        throw new AssertionError("the child ended with " + process.waitFor() + " before opening its store:\n" + seen);
      }
    }

    static Child start(Path db, Path tmp, Path cache, boolean rocksDbLoader) throws Exception {
      return launch(db, tmp, cache, rocksDbLoader).awaitOpen();
    }

    static Started launch(Path db, Path tmp, Path cache, boolean rocksDbLoader) throws IOException {
      String java = ProcessHandle.current().info().command().orElseThrow(
          () -> new IllegalStateException("cannot tell which java binary runs this test"));
      List<String> command = new ArrayList<>(List.of(java, "-Xmx64m", "--enable-native-access=ALL-UNNAMED",
          "-Djava.io.tmpdir=" + tmp, "-D" + RocksLibrary.FOLDER_PROPERTY + "=" + cache,
          "-cp", System.getProperty("java.class.path"), OpenStoreAndWait.class.getName(), db.toString()));
      if (rocksDbLoader) {
        command.add("rocksdb-loader");
      }
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      return new Started(process, new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)));
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
    }
  }
}
