package dev.crawler.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real small filesystem for a test: a tmpfs of a fixed size mounted on a folder, so that
 * writes beyond it fail with ENOSPC ("No space left on device") as they do on a full disk.
 * Mounting needs root (or CAP_SYS_ADMIN); where the machine does not allow it the test is
 * skipped with the reason, never faked.
 */
final class SmallFilesystem implements AutoCloseable {
  private final Path mountPoint;

  private SmallFilesystem(Path mountPoint) {
    this.mountPoint = mountPoint;
  }

  /** Mounts a tmpfs of {@code megabytes} on {@code mountPoint} (created if missing), or skips the test. */
  static SmallFilesystem mount(Path mountPoint, int megabytes) throws IOException, InterruptedException {
    Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"), "a tmpfs mount needs Linux");
    Files.createDirectories(mountPoint);
    Result r = exec("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=0700", "tmpfs", mountPoint.toString());
    Assumptions.assumeTrue(r.code == 0, () -> "cannot mount a small tmpfs to fill (needs root or CAP_SYS_ADMIN): "
        + r.output.strip());
    return new SmallFilesystem(mountPoint);
  }

  Path root() {
    return mountPoint;
  }

  /** Bytes a new file may still take. */
  long freeBytes() throws IOException {
    return Files.getFileStore(mountPoint).getUsableSpace();
  }

  /** Writes a file of zeros that leaves about {@code leaveFree} bytes free; returns its path. */
  Path fillLeaving(long leaveFree) throws IOException {
    Path filler = mountPoint.resolve("filler.bin");
    write(filler, freeBytes() - leaveFree);
    return filler;
  }

  /** Writes zeros to a new file until the filesystem refuses more, as another program filling the disk would. */
  Path fillCompletely(String name) throws IOException {
    Path filler = mountPoint.resolve(name);
    try {
      write(filler, Long.MAX_VALUE);
    } catch (IOException full) {
      if (freeBytes() > 0) {
        throw full;
      }
    }
    return filler;
  }

  private static void write(Path file, long size) throws IOException {
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
      for (long written = 0; written < size; ) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
        written += out.write(zeros);
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    Result r = exec("umount", mountPoint.toString());
    if (r.code != 0) {
      // something still holds a file open; detach it so the next test and the temp folder cleanup go on
      exec("umount", "-l", mountPoint.toString());
    }
  }

  private record Result(int code, String output) {}

  private static Result exec(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, String.join(" ", command) + " did not finish in 30 s");
    }
    return new Result(p.exitValue(), out);
  }
}
