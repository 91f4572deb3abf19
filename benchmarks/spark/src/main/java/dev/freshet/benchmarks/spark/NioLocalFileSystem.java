package dev.freshet.benchmarks.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system with permissions set through java.nio.
 *
 * <p>Without Hadoop's native library, {@link RawLocalFileSystem} forks a {@code chmod} process for
 * every checkpoint and state file it writes (about 30-40 ms each on the benchmark machine), which
 * would make Spark look slower than it is. Setting the same permissions in-process keeps Spark's
 * query unchanged and gives it its best configuration: the one Freshet is compared with.
 */
public class NioLocalFileSystem extends RawLocalFileSystem {
  private static final PosixFilePermission[] BITS = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_READ};

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    int mode = permission.toShort();
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    for (int bit = 0; bit < BITS.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        set.add(BITS[bit]);
      }
    }
    Files.setPosixFilePermissions(pathToFile(p).toPath(), set);
  }
}
