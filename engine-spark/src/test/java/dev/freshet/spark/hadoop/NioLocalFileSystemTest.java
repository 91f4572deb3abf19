package dev.freshet.spark.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Shell;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NioLocalFileSystem} and {@link NioLocalFs} leave every file, directory and status as
 * Hadoop's own local file systems do (Hadoop, running chmod and ls in this JVM without its native
 * library, is the oracle), and start no child process doing it.
 */
@SparkTest
class NioLocalFileSystemTest {
  private java.nio.file.Path dir;

  @BeforeEach void makeDir() throws IOException {
    dir = Files.createTempDirectory("local-fs-test");
    // Hadoop's Shell probes for setsid with a child process once, when its class loads.
    assertTrue(Shell.LINUX || Shell.MAC || Shell.FREEBSD, "a Unix");
  }

  @AfterEach void removeDir() throws IOException {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test void shouldMakeFilesAndDirectoriesWithHadoopsPermissionsUnderTheDefaultUmask()
      throws Exception {
    assertSameAsHadoop(new Configuration());
  }

  @Test void shouldApplyTheConfiguredUmaskAsHadoopDoes() throws Exception {
    Configuration conf = new Configuration();
    conf.set(FsPermission.UMASK_LABEL, "027");
    assertSameAsHadoop(conf);
  }

  @Test void shouldKeepTheStickyBitAndADirectorysSetGroupIdBitAsChmodDoes() throws Exception {
    Configuration conf = new Configuration();
    List<String> hadoop = new ArrayList<>();
    List<String> nio = new ArrayList<>();
    for (boolean ours : new boolean[] {false, true}) {
      FileSystem fs = fileSystem(conf, ours);
      Path root = new Path(dir.resolve(ours ? "nio" : "hadoop").toString());
      fs.mkdirs(root);
      Files.setAttribute(java.nio.file.Path.of(root.toString()), "unix:mode", 02755);
      Path child = new Path(root, "child");
      fs.mkdirs(child);   // inherits the set-group-ID bit from its parent
      fs.setPermission(child, new FsPermission((short) 01770));
      Path file = new Path(root, "file");
      fs.create(file).close();
      Files.setAttribute(java.nio.file.Path.of(file.toString()), "unix:mode", 06755);
      fs.setPermission(file, new FsPermission((short) 0640));
      List<String> seen = ours ? nio : hadoop;
      for (Path p : List.of(root, child, file)) {
        seen.add((p == root ? "root" : p.getName()) + " " + mode(p) + " "
            + describe(fs.getFileStatus(p), false));
      }
    }
    // The oracle's chmod kept the directory's set-group-ID bit and cleared the file's set-id bits.
    assertEquals(List.of("root 2755", "child 3770", "file 640"),
        nio.stream().map(line -> line.substring(0, line.indexOf(' ', line.indexOf(' ') + 1)))
            .toList());
    assertEquals(strip(hadoop), strip(nio));
  }

  @Test void shouldReadLinksAsHadoopDoes() throws Exception {
    Configuration conf = new Configuration();
    java.nio.file.Path target = Files.writeString(dir.resolve("target"), "abc");
    java.nio.file.Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    java.nio.file.Path dangling = Files.createSymbolicLink(dir.resolve("dangling"),
        dir.resolve("gone"));
    FileSystem hadoop = fileSystem(conf, false);
    FileSystem nio = fileSystem(conf, true);
    for (String path : List.of(link.toString(), "file://" + link, target.toString(),
        dangling.toString())) {
      Path p = new Path(path);
      assertEquals(describe(hadoop.getFileLinkStatus(p)), describe(nio.getFileLinkStatus(p)),
          path);
      assertEquals(linkTarget(hadoop, p), linkTarget(nio, p), path);
    }
    assertTrue(nio.getFileLinkStatus(new Path(link.toString())).isSymlink());
    // Followed, as Hadoop follows it: the target's size, the link's own permission.
    Path p = new Path(link.toString());
    assertEquals(describe(hadoop.getFileStatus(p)), describe(nio.getFileStatus(p)));
    assertThrows(FileNotFoundException.class, () -> nio.getFileStatus(new Path(
        dangling.toString())));
    assertThrows(FileNotFoundException.class, () -> nio.listStatus(new Path(
        dir.resolve("gone").toString())));
    // A path through a file, as Spark's commit log meets when its directory is a file.
    assertThrows(FileNotFoundException.class, () -> nio.getFileStatus(new Path(
        target.resolve("0").toString())));
    assertThrows(FileNotFoundException.class, () -> hadoop.getFileStatus(new Path(
        target.resolve("0").toString())));
  }

  /** Hadoop without its native library runs chmod and ls; these classes run none. */
  @Test void shouldStartNoChildProcess() throws Exception {
    Configuration conf = new Configuration();
    NioLocalFileSystem.configure(conf);
    Path root = new Path(dir.resolve("nio").toString());
    ChildProcessGuard.forbid(() -> writeCheckpoint(conf, root));
    // The guard works: Hadoop's own file system is refused the chmod it runs.
    SecurityException refused = assertThrows(SecurityException.class, () ->
        ChildProcessGuard.forbid(() -> fileSystem(new Configuration(), false).mkdirs(
            new Path(dir.resolve("hadoop").toString()))));
    assertTrue(refused.getMessage().contains("chmod"), refused.getMessage());
  }

  /** The classes a configured Hadoop configuration gives for {@code file:} paths. */
  @Test void shouldBeWhatAConfiguredConfigurationGivesForFilePaths() throws Exception {
    Configuration conf = new Configuration();
    NioLocalFileSystem.configure(conf);
    assertInstanceOf(NioLocalFileSystem.class, FileSystem.newInstance(URI.create("file:///"),
        conf));
    assertInstanceOf(NioLocalFs.class, FileContext.getFileContext(conf).getDefaultFileSystem());
  }

  /** Both file systems (FileSystem, FileContext) leave the same files as Hadoop's. */
  private void assertSameAsHadoop(Configuration conf) throws Exception {
    Configuration nioConf = new Configuration(conf);
    NioLocalFileSystem.configure(nioConf);
    List<String> hadoop = writeCheckpoint(conf, new Path(dir.resolve("hadoop").toString()));
    List<String> nio = writeCheckpoint(nioConf, new Path(dir.resolve("nio").toString()));
    assertEquals(strip(hadoop), strip(nio));
    assertTrue(nio.size() > 8, nio.toString());
  }

  /**
   * What Spark does to a checkpoint through both APIs (directories, files made and renamed,
   * permissions set, statuses listed), and every file's mode and status afterwards.
   */
  private List<String> writeCheckpoint(Configuration conf, Path root) throws IOException {
    FileSystem fs = FileSystem.newInstance(root.toUri(), conf);
    fs.mkdirs(new Path(root, "offsets"));
    try (FSDataOutputStream out = fs.create(new Path(root, "metadata"))) {
      out.write("{\"id\":1}".getBytes(StandardCharsets.UTF_8));
    }
    fs.create(new Path(root, "sources/0/0"), new FsPermission((short) 0600), false, 4096,
        (short) 1, 1 << 20, null).close();
    fs.mkdirs(new Path(root, "state/0"), new FsPermission((short) 0700));
    FileContext fc = FileContext.getFileContext(root.toUri(), conf);
    Path temporary = new Path(root, "offsets/.0.tmp");
    try (FSDataOutputStream out = fc.create(temporary, EnumSet.of(CreateFlag.CREATE),
        Options.CreateOpts.createParent())) {
      out.write("v1".getBytes(StandardCharsets.UTF_8));
    }
    fc.rename(temporary, new Path(root, "offsets/0"), Options.Rename.OVERWRITE);
    fc.mkdir(new Path(root, "commits"), FsPermission.getDirDefault(), true);
    fs.setPermission(new Path(root, "commits"), new FsPermission((short) 0750));
    List<String> seen = new ArrayList<>();
    List<Path> pending = new ArrayList<>(List.of(root));
    while (!pending.isEmpty()) {
      Path p = pending.remove(0);
      FileStatus status = fs.getFileStatus(p);
      seen.add(mode(p) + " " + describe(status, false) + " as FileContext's "
          + describe(fc.getFileStatus(p), false));
      for (FileStatus listed : fs.listStatus(p)) {
        seen.add("listed " + describe(listed, false));
        if (status.isDirectory()) {
          pending.add(listed.getPath());
        }
      }
    }
    seen.sort(null);
    return seen;
  }

  /** The link's target, or the error a path that is no link gets. */
  private static String linkTarget(FileSystem fs, Path p) {
    try {
      return fs.getLinkTarget(p).toString();
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static FileSystem fileSystem(Configuration conf, boolean ours) throws IOException {
    FileSystem fs = ours ? new NioLocalFileSystem() : new LocalFileSystem();
    fs.initialize(URI.create("file:///"), conf);
    return fs;
  }

  /** The file's whole mode (set-id bits too), in octal, as stat shows it. */
  private static String mode(Path p) throws IOException {
    return Integer.toOctalString((Integer) Files.getAttribute(
        java.nio.file.Path.of(p.toUri().getPath()), "unix:mode", java.nio.file.LinkOption
            .NOFOLLOW_LINKS) & 07777);
  }

  private static String describe(FileStatus s) throws IOException {
    return describe(s, true);
  }

  /** Every field of a status; the times only if both sides read the same file. */
  private static String describe(FileStatus s, boolean times) throws IOException {
    return String.format("%s dir=%s link=%s len=%d perm=%s owner=%s group=%s repl=%d block=%d%s",
        s.getPath(), s.isDirectory(), s.isSymlink() ? s.getSymlink() : "-", s.getLen(),
        s.getPermission(), s.getOwner(), s.getGroup(), s.getReplication(), s.getBlockSize(),
        times ? " mtime=" + s.getModificationTime() + " atime=" + s.getAccessTime() : "");
  }

  /** The lines with the root directory's name ("hadoop" or "nio") taken out. */
  private static List<String> strip(List<String> lines) {
    return lines.stream().map(l -> l.replace("/hadoop", "/ROOT").replace("/nio", "/ROOT"))
        .sorted().toList();
  }

  /** Runs a piece of code on this thread with every child process it would start refused. */
  static final class ChildProcessGuard extends SecurityManager {
    private final Thread guarded = Thread.currentThread();

    @SuppressWarnings("removal")
    static <T> T forbid(Callable<T> code) throws Exception {
      SecurityManager before = System.getSecurityManager();
      System.setSecurityManager(new ChildProcessGuard());
      try {
        return code.call();
      } finally {
        System.setSecurityManager(before);
      }
    }

    @Override public void checkExec(String cmd) {
      if (Thread.currentThread() == guarded) {
        throw new SecurityException("a child process: " + cmd);
      }
    }

    @Override public void checkPermission(java.security.Permission perm) {
    }

    @Override public void checkPermission(java.security.Permission perm, Object context) {
    }
  }
}
