package dev.crawler.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A copy of bin/ that runs the classes just compiled: the shaded jar is built only at `package`,
 * after the tests, so the launcher runs from a copy of bin/ beside a jar whose manifest points at
 * this test's classpath.
 */
final class LauncherCopy {
  private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

  private LauncherCopy() {}

  /** Copies bin/crawler and bin/jdk-home into {@code project/bin}; returns bin/crawler there. */
  static Path in(Path project) throws IOException {
    Files.createDirectories(project.resolve("bin"));
    for (String script : List.of("crawler", "jdk-home")) {
      Files.copy(PROJECT.resolve("bin").resolve(script), project.resolve("bin").resolve(script),
          StandardCopyOption.COPY_ATTRIBUTES);
    }
    writeLauncherJar(project.resolve("crawler/target/crawler.jar"));
    return project.resolve("bin/crawler");
  }

  /** A jar with no classes: its manifest names the main class and, as Class-Path, this test's classpath. */
  private static void writeLauncherJar(Path jar) throws IOException {
    Files.createDirectories(jar.getParent());
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(Attributes.Name.MAIN_CLASS, CrawlerCommand.class.getName());
    main.put(Attributes.Name.CLASS_PATH, String.join(" ", classpath().stream().map(p -> p.toUri().toString()).toList()));
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      // the manifest is all it holds
    }
  }

  /** This JVM's classpath; Surefire's manifest-only jar is opened up into the entries it names. */
  private static Set<Path> classpath() throws IOException {
    Set<Path> entries = new LinkedHashSet<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      entries.add(path);
      if (Files.isRegularFile(path) && path.toString().endsWith(".jar")) {
        try (JarFile jar = new JarFile(path.toFile())) {
          Manifest m = jar.getManifest();
          String named = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
          if (named != null) {
            for (String url : named.trim().split("\\s+")) {
              entries.add(Path.of(path.getParent().toUri().resolve(url)));
            }
          }
        }
      }
    }
    return entries;
  }

}
