package dev.freshet.testkit.crash;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;

/**
 * The class path of child JVMs, with an application class-data-sharing archive (AppCDS) of the
 * classes they load, so that the children after the one that wrote it map Calcite's, H2's and
 * the engine's classes instead of loading and verifying them again: about 1 of the 2.5 CPU
 * seconds a child spends before its first statement.
 *
 * <p>JDK 17 archives classes from JAR files only, so the build's class directories on the test
 * class path are copied into JARs once per content (a key over the class path and every file's
 * name, size and time), under {@code target/child-jvm/<key>/}, shared by the test JVMs of a
 * module. A child that ends normally writes the archive ({@code -XX:ArchiveClassesAtExit}) once
 * enough children came before it ({@link #dumpFile()}); the children after it read it. A child
 * that is killed writes nothing, and a JVM that cannot use the archive runs without it
 * ({@code -Xshare:auto}).
 */
final class SharedClasses {
  private static final int CHILDREN_BEFORE_DUMP = 4;
  private static final AtomicInteger STARTED = new AtomicInteger();
  private static final AtomicInteger DUMPS = new AtomicInteger();
  private static SharedClasses instance;

  private final String classPath;
  private final Optional<Path> archive;

  private SharedClasses(String classPath, Optional<Path> archive) {
    this.classPath = classPath;
    this.archive = archive;
  }

  /** This JVM's, made on first use; without an archive if its JARs cannot be written. */
  static synchronized SharedClasses get() {
    if (instance == null) {
      String testClassPath = System.getProperty("java.class.path");
      try {
        instance = inJars(testClassPath);
      } catch (IOException | RuntimeException e) {
        // Slower children, same results.
        instance = new SharedClasses(testClassPath, Optional.empty());
      }
    }
    return instance;
  }

  /** The class path of a child: the test's, with JARs for its directories. */
  String classPath() {
    return classPath;
  }

  /**
   * The JVM options that read the archive, or that write it into {@code dump} if there is none
   * yet (for {@link #keep}); none without an archive.
   */
  List<String> jvmOptions(Optional<Path> dump) {
    List<String> options = new ArrayList<>();
    if (archive.isEmpty()) {
      return options;
    }
    // The JVM's own warnings (such as a class CDS skips) to stderr: stdout is the test's.
    options.addAll(List.of("-Xshare:auto", "-Xlog:disable", "-Xlog:all=warning:stderr"));
    if (Files.exists(archive.get())) {
      options.add("-XX:SharedArchiveFile=" + archive.get());
    } else {
      dump.ifPresent(file -> options.add("-XX:ArchiveClassesAtExit=" + file));
    }
    return options;
  }

  /**
   * Where the child about to start may write the archive at its exit: if none is there yet, and
   * this JVM has started {@value #CHILDREN_BEFORE_DUMP} children before it. Writing it costs
   * about 4 CPU seconds, which the next three or four children earn back: a test JVM that has
   * started few children (a test with two kills and a check) is likely to start no more.
   */
  Optional<Path> dumpFile() {
    int before = STARTED.getAndIncrement();
    if (archive.isEmpty() || Files.exists(archive.get()) || before < CHILDREN_BEFORE_DUMP) {
      return Optional.empty();
    }
    return Optional.of(archive.get().resolveSibling("classes-" + ProcessHandle.current().pid()
        + "-" + DUMPS.incrementAndGet() + ".jsa.tmp"));
  }

  /** Makes the archive a child wrote at its normal exit the one later children read. */
  void keep(Path dump) {
    try {
      if (Files.exists(dump) && !Files.exists(archive.get())) {
        Files.move(dump, archive.get(), StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      // Another test JVM's child wrote it first, or the disk refused: children run without.
    } finally {
      discard(dump);
    }
  }

  /** Removes what a child that did not end normally may have begun writing. */
  static void discard(Path dump) {
    try {
      Files.deleteIfExists(dump);
    } catch (IOException e) {
      // A leftover file in target/, removed by the next clean.
    }
  }

  private static SharedClasses inJars(String testClassPath) throws IOException {
    Path target = Path.of(System.getProperty("user.dir"), "target");
    if (!Files.isDirectory(target)) {
      return new SharedClasses(testClassPath, Optional.empty());
    }
    List<Path> entries = new ArrayList<>();
    for (String entry : testClassPath.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        entries.add(Path.of(entry).toAbsolutePath());
      }
    }
    Path home = target.resolve("child-jvm").resolve(key(entries));
    List<String> jars = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      jars.add(Files.isDirectory(entries.get(i))
          ? home.resolve(i + "-" + entries.get(i).getFileName() + ".jar").toString()
          : entries.get(i).toString());
    }
    if (!Files.isDirectory(home)) {
      Path building = Files.createDirectories(home.resolveSibling(home.getFileName() + "-"
          + ProcessHandle.current().pid() + ".tmp"));
      for (int i = 0; i < entries.size(); i++) {
        if (Files.isDirectory(entries.get(i))) {
          jar(entries.get(i), building.resolve(Path.of(jars.get(i)).getFileName()));
        }
      }
      try {
        Files.move(building, home, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        // Another test JVM made the same JARs at the same time: use its.
      } catch (IOException e) {
        if (!Files.isDirectory(home)) {
          throw e;
        }
      } finally {
        deleteTree(building);
      }
    }
    return new SharedClasses(String.join(File.pathSeparator, jars),
        Optional.of(home.resolve("classes.jsa")));
  }

  /** A key over the class path, the JDK and the name, size and time of each directory's files. */
  private static String key(List<Path> entries) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    digest.update((System.getProperty("java.home") + "\n" + Runtime.version() + "\n")
        .getBytes(StandardCharsets.UTF_8));
    for (Path entry : entries) {
      digest.update((entry + "\n").getBytes(StandardCharsets.UTF_8));
      if (Files.isDirectory(entry)) {
        for (Path file : files(entry)) {
          BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
          digest.update((entry.relativize(file) + " " + attributes.size() + " "
              + attributes.lastModifiedTime().toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 8);
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** A JAR of {@code directory}, uncompressed: children read it once, then map the archive. */
  private static void jar(Path directory, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar);
         JarOutputStream out = new JarOutputStream(file)) {
      out.setLevel(Deflater.NO_COMPRESSION);
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(directory)) {
        paths = walk.filter(path -> !path.equals(directory)).sorted().toList();
      }
      for (Path path : paths) {
        String name = directory.relativize(path).toString().replace(File.separatorChar, '/');
        boolean isDirectory = Files.isDirectory(path);
        // Directory entries too, as a class directory answers getResource("dev/freshet/").
        out.putNextEntry(new ZipEntry(isDirectory ? name + "/" : name));
        if (!isDirectory) {
          Files.copy(path, out);
        }
        out.closeEntry();
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
