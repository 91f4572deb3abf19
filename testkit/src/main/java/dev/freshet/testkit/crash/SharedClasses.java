package dev.freshet.testkit.crash;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The class path of child JVMs, with an application class-data-sharing archive (AppCDS) of the
 * classes they load, so that the children after the one that wrote it map Calcite's, H2's and
 * the engine's classes instead of loading and verifying them again: about 1.5 of the 4 CPU
 * seconds a child spends before its first statement.
 *
 * <p>JDK 17 archives classes from JAR files only, so the build's class directories on the test
 * class path are copied into JARs once per content (a key over the class path and every file's
 * name, size and time), under {@code target/child-jvm/<key>/}, shared by the test JVMs of a
 * module. Signed JARs (Janino's) are copied there without their signature too: the JVM archives
 * no class of a signed JAR, and checks the digest of each class it loads from one.
 *
 * <p>The archive is written from a child that is about to be killed ({@link #claimDump()}): the
 * second child a test JVM starts, if no archive is there yet, runs with
 * {@code -XX:+RecordDynamicDumpInfo}, and {@link ChildJvm#kill()} has it write the classes it
 * loaded ({@code jcmd <pid> VM.cds dynamic_dump}) just before the SIGKILL. Most children are
 * killed rather than ending normally, so an archive written at a normal exit
 * ({@code -XX:ArchiveClassesAtExit}) came late or never. A JVM that cannot use the archive runs
 * without it ({@code -Xshare:auto}).
 */
final class SharedClasses {
  private static final int CHILDREN_BEFORE_DUMP = 1;
  private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");
  private static final Duration DUMP_DEADLINE = Duration.ofSeconds(60);
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
   * The JVM options that read the archive, or that let the child write it before it is killed if
   * it {@linkplain #claimDump() claimed} that; none without an archive.
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
    } else if (dump.isPresent()) {
      options.add("-XX:+RecordDynamicDumpInfo");
    }
    return options;
  }

  /**
   * Where the child about to start is to write the archive before it is killed ({@link #dump}),
   * if none is there yet, no other child of this module's test JVMs is writing it, and this JVM
   * has started {@value #CHILDREN_BEFORE_DUMP} child before: writing it costs about 3.5 CPU
   * seconds, which the next two children earn back, and a test JVM that started a single child
   * (one kill and a check in the test JVM) is likely to start no more.
   */
  Optional<Path> claimDump() {
    int before = STARTED.getAndIncrement();
    if (archive.isEmpty() || Files.exists(archive.get()) || before < CHILDREN_BEFORE_DUMP
        || !Files.isExecutable(JCMD)) {
      return Optional.empty();
    }
    Path claim = claim();
    try {
      Files.createFile(claim);
    } catch (FileAlreadyExistsException e) {
      if (!stale(claim)) {
        return Optional.empty();
      }
      // The JVM that claimed it died before it wrote the archive: take it over.
      try {
        Files.setLastModifiedTime(claim, FileTime.from(Instant.now()));
      } catch (IOException gone) {
        return Optional.empty();
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.of(archive.get().resolveSibling("classes-" + ProcessHandle.current().pid()
        + "-" + DUMPS.incrementAndGet() + ".jsa.tmp"));
  }

  /**
   * Has the child {@code pid}, started with {@link #jvmOptions} of {@code dump}, write the
   * classes it loaded into {@code dump}, and makes that the archive later children read. The
   * child goes on running meanwhile (it stops only at a safepoint to write); it is killed right
   * after. Without the archive if the child or {@code jcmd} fails: slower children, same results.
   */
  void dump(long pid, Path dump) {
    try {
      Process jcmd = new ProcessBuilder(JCMD.toString(), "-J-XX:TieredStopAtLevel=1",
          "-J-XX:+UseSerialGC", Long.toString(pid), "VM.cds", "dynamic_dump", dump.toString())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!jcmd.waitFor(DUMP_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
        jcmd.destroyForcibly();
      } else if (jcmd.exitValue() == 0 && Files.size(dump) > 0 && !Files.exists(archive.get())) {
        Files.move(dump, archive.get(), StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      // No archive: the children after run without it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      release(dump);
    }
  }

  /** Gives up the claim of a child that wrote no archive, and what it may have begun writing. */
  void release(Path dump) {
    try {
      Files.deleteIfExists(dump);
      Files.deleteIfExists(claim());
    } catch (IOException e) {
      // A leftover file in target/, removed by the next clean.
    }
  }

  private Path claim() {
    return archive.get().resolveSibling("classes.jsa.claim");
  }

  /** A claim older than any child's dump: its JVM died before it wrote the archive. */
  private static boolean stale(Path claim) {
    try {
      return Files.getLastModifiedTime(claim).toInstant()
          .isBefore(Instant.now().minus(DUMP_DEADLINE.multipliedBy(10)));
    } catch (IOException e) {
      return false;
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
    if (!Files.isDirectory(home)) {
      Path building = Files.createDirectories(home.resolveSibling(home.getFileName() + "-"
          + ProcessHandle.current().pid() + ".tmp"));
      for (int i = 0; i < entries.size(); i++) {
        Path entry = entries.get(i);
        if (Files.isDirectory(entry)) {
          jar(entry, building.resolve(copyName(i, entry)));
        } else if (isSigned(entry)) {
          unsigned(entry, building.resolve(copyName(i, entry)));
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
    List<String> jars = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      Path copy = home.resolve(copyName(i, entries.get(i)));
      jars.add(Files.exists(copy) ? copy.toString() : entries.get(i).toString());
    }
    return new SharedClasses(String.join(File.pathSeparator, jars),
        Optional.of(home.resolve("classes.jsa")));
  }

  /** The name of the copy of class path entry {@code i} in the JARs' directory. */
  private static String copyName(int i, Path entry) {
    String name = entry.getFileName().toString();
    return i + "-" + (name.endsWith(".jar") ? name : name + ".jar");
  }

  /** Whether {@code file} is a JAR with a signature, whose classes the JVM does not archive. */
  private static boolean isSigned(Path file) {
    if (!file.getFileName().toString().endsWith(".jar") || !Files.isRegularFile(file)) {
      return false;
    }
    try (ZipFile zip = new ZipFile(file.toFile())) {
      return zip.stream().anyMatch(entry -> isSignature(entry.getName()));
    } catch (IOException e) {
      return false;
    }
  }

  /** A signature file of a JAR: {@code META-INF/*.SF}, {@code .RSA}, {@code .DSA}, {@code .EC}. */
  private static boolean isSignature(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    return upper.startsWith("META-INF/") && upper.indexOf('/', 9) < 0
        && (upper.endsWith(".SF") || upper.endsWith(".RSA") || upper.endsWith(".DSA")
            || upper.endsWith(".EC"));
  }

  /**
   * A copy of the signed JAR {@code signed} without its signature: the same classes and
   * resources, a manifest with its main attributes only (not the entries' digests).
   */
  private static void unsigned(Path signed, Path copy) throws IOException {
    try (JarFile in = new JarFile(signed.toFile(), false);
         OutputStream file = Files.newOutputStream(copy);
         JarOutputStream out = new JarOutputStream(file)) {
      out.setLevel(Deflater.NO_COMPRESSION);
      Manifest manifest = in.getManifest();
      if (manifest != null) {
        Manifest main = new Manifest();
        main.getMainAttributes().putAll(manifest.getMainAttributes());
        out.putNextEntry(new ZipEntry(JarFile.MANIFEST_NAME));
        main.write(out);
        out.closeEntry();
      }
      for (JarEntry entry : (Iterable<JarEntry>) in.stream()::iterator) {
        String name = entry.getName();
        if (isSignature(name) || name.equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
          continue;
        }
        out.putNextEntry(new ZipEntry(name));
        try (InputStream data = in.getInputStream(entry)) {
          data.transferTo(out);
        }
        out.closeEntry();
      }
    }
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

  /**
   * Whether {@code line} of a child's standard output is the report the JVM prints there when
   * {@code jcmd} dumps its classes (" Dynamic dump to file ..."), not a line of the child's:
   * the test must not read it as one.
   */
  static boolean isDumpReport(String line) {
    return line.strip().startsWith("Dynamic dump to file ");
  }
}
