package dev.crawler.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium}, run headless on a page: the DOM after the page's scripts ran for a
 * while, or a screenshot. Virtual time lets the page's timers run their course without the test
 * sleeping; it waits on the page's network requests, which are real.
 */
final class HeadlessChromium {
  private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

  private final Path executable;
  private final Path profile;

  private HeadlessChromium(Path executable, Path profile) {
    this.executable = executable;
    this.profile = profile;
  }

  /** The browser on the PATH, if there is one. */
  static Optional<HeadlessChromium> find(Path profile) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      for (String name : NAMES) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(new HeadlessChromium(candidate, profile));
        }
      }
    }
    return Optional.empty();
  }

  /** The page's DOM after {@code virtualMillis} of its own time. */
  String dumpDom(String url, int virtualMillis) throws IOException, InterruptedException {
    return run(url, virtualMillis, "--dump-dom");
  }

  void screenshot(String url, int virtualMillis, Path png, int width, int height)
      throws IOException, InterruptedException {
    Files.deleteIfExists(png);
    run(url, virtualMillis, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
        "--hide-scrollbars");
    if (!Files.exists(png)) {
      throw new IOException("chromium wrote no screenshot to " + png);
    }
  }

  private String run(String url, int virtualMillis, String... what) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
        "--virtual-time-budget=" + virtualMillis));
    command.addAll(List.of(what));
    command.add(url);
    Path err = Files.createTempFile(profile.getParent(), "chromium", ".err");
    Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException("chromium did not end within 2 minutes");
    }
    if (process.exitValue() != 0) {
      throw new IOException("chromium exited with " + process.exitValue() + ": " + Files.readString(err));
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
