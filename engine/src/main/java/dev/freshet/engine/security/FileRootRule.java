package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The rule of the {@code filesystem} connector on a server: a stream reads only below a
 * directory the operator allowed ({@code freshet serve --allow-file-root DIR}). The path is
 * judged twice: as written, with {@code ..} taken out, before anything on disk is looked at;
 * then with its symbolic links resolved, so that a link below a root cannot lead out of it.
 *
 * <pre>{@code
 * FileRootRule rule = new FileRootRule(List.of(Path.of("/srv/data")));
 * rule.check("Stream ORDERS", Path.of("/srv/data/orders"));   // the real path, links resolved
 * rule.check("Stream ORDERS", Path.of("/srv/data/../etc"));   // SQLException 42501
 * }</pre>
 */
final class FileRootRule {
  /** The server option that allows a directory, as messages name it. */
  static final String OPTION = "--allow-file-root";

  /** Absolute and normalized, as {@link ConnectorPolicy} made them. */
  private final List<Path> roots;

  FileRootRule(List<Path> roots) {
    this.roots = List.copyOf(requireNonNull(roots, "roots"));
  }

  /**
   * The directory {@code object} may read at {@code path}: its real path if it exists (so that
   * what is read is what was judged), otherwise the path with {@code ..} taken out.
   *
   * @param object what reads, as messages name it, e.g. {@code Stream ORDERS}
   * @param path an absolute path
   * @throws SQLException 42501 if no root is allowed, or the path, as written or with its links
   *     resolved, is not below one
   */
  Path check(String object, Path path) throws SQLException {
    if (roots.isEmpty()) {
      throw Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot read files: this server"
          + " lets the filesystem connector read only below directories its operator allows,"
          + " and it allows none. Have the server started with " + OPTION + " DIR (repeatable)"
          + " for the directory that holds the files, and give a 'path' below it");
    }
    Path normalized = path.toAbsolutePath().normalize();
    // Judged before the file system is asked anything: a path outside every root is not looked
    // at, so its existence is not told either.
    if (roots.stream().noneMatch(normalized::startsWith)) {
      throw outside(object, path.toString(), "is not below");
    }
    Optional<Path> real = realPath(normalized);
    if (real.isEmpty()) {
      throw outside(object, path.toString(), "leads through a symbolic link that leads nowhere,"
          + " so it cannot be judged to be below");
    }
    for (Path root : roots) {
      if (real.get().startsWith(realPath(root).orElse(root))) {
        return real.get();
      }
    }
    // Where the link leads is not told: that is the server's business.
    throw outside(object, path.toString(), "leads through a symbolic link out of");
  }

  private SQLException outside(String object, String path, String why) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot read '" + path + "': it "
        + why + " a directory this server allows (" + shownRoots() + "). Give a 'path' below one"
        + " of them, or have the server started with " + OPTION + " DIR for the directory that"
        + " holds the files");
  }

  private String shownRoots() {
    return roots.stream().map(Path::toString).collect(Collectors.joining(", "));
  }

  /**
   * {@code path} with every symbolic link resolved: of the deepest part that exists, followed
   * by the rest as written, so that a link in a path that does not exist (yet) is judged too;
   * empty if a link in it leads nowhere (where it would lead cannot be judged).
   */
  static Optional<Path> realPath(Path path) {
    List<Path> missing = new ArrayList<>();
    Path existing = path;
    while (existing != null) {
      if (Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
        Path resolved;
        try {
          resolved = existing.toRealPath();
        } catch (IOException e) {
          return Optional.empty();
        }
        for (int i = missing.size() - 1; i >= 0; i--) {
          resolved = resolved.resolve(missing.get(i));
        }
        return Optional.of(resolved.normalize());
      }
      Path name = existing.getFileName();
      if (name == null) {
        break;
      }
      missing.add(name);
      existing = existing.getParent();
    }
    return Optional.of(path);
  }
}
