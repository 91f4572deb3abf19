package dev.freshet.spark.hadoop;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFs;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.local.LocalConfigKeys;

/**
 * {@code FileContext}'s {@code file:} file system (checksummed, as Hadoop's {@code LocalFs})
 * over {@link NioRawLocalFileSystem}; Hadoop makes it by reflection from
 * {@code fs.AbstractFileSystem.file.impl} ({@link NioLocalFileSystem#configure}).
 */
public class NioLocalFs extends ChecksumFs {
  public NioLocalFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(new Raw(uri, conf));
  }

  /** As Hadoop's {@code RawLocalFs}, over {@link NioRawLocalFileSystem}. */
  static final class Raw extends DelegateToFileSystem {
    Raw(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(uri, new NioRawLocalFileSystem(), conf, uri.getScheme(), false);
    }

    /** Local paths have no port. */
    @Override public int getUriDefaultPort() {
      return -1;
    }

    @Override public FsServerDefaults getServerDefaults(Path f) throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    @Deprecated
    @Override public FsServerDefaults getServerDefaults() throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    /** Every name is valid on a local disk. */
    @Override public boolean isValidName(String src) {
      return true;
    }
  }
}
