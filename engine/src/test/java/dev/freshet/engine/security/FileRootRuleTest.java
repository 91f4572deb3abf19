package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directories a server's {@code filesystem} streams may read ({@link FileRootRule}): below a
 * root as written and with links resolved, and nowhere with no root.
 */
class FileRootRuleTest {
  @TempDir Path dir;
  private Path root;
  private Path outside;
  private FileRootRule rule;

  @BeforeEach void makeRoot() throws IOException {
    root = Files.createDirectories(dir.resolve("data"));
    outside = Files.createDirectories(dir.resolve("secret"));
    Files.createDirectories(root.resolve("orders"));
    rule = new FileRootRule(List.of(root.toAbsolutePath().normalize()));
  }

  private SQLException refused(FileRootRule rule, Path path) {
    SQLException e = assertThrows(SQLException.class, () -> rule.check("Stream S", path),
        path.toString());
    assertEquals("42501", e.getSQLState(), path.toString());
    return e;
  }

  @Test void shouldPassADirectoryBelowARootAtItsRealPath() throws Exception {
    assertEquals(root.resolve("orders").toRealPath(), rule.check("Stream S",
        root.resolve("orders")));
    assertEquals(root.toRealPath(), rule.check("Stream S", root));
    assertEquals(root.resolve("orders").toRealPath(), rule.check("Stream S",
        root.resolve("x/../orders")));
  }

  @Test void shouldRefuseEverythingWithNoRootNamingTheOption() {
    SQLException e = refused(new FileRootRule(List.of()), Path.of("/etc"));
    assertEquals("Stream S cannot read files: this server lets the filesystem connector read"
        + " only below directories its operator allows, and it allows none. Have the server"
        + " started with --allow-file-root DIR (repeatable) for the directory that holds the"
        + " files, and give a 'path' below it", e.getMessage());
  }

  @Test void shouldRefuseAPathThatDotDotLeadsOut() {
    Path escape = root.resolve("../secret");
    SQLException e = refused(rule, escape);
    assertEquals("Stream S cannot read '" + escape + "': it is not below a directory this server"
        + " allows (" + root + "). Give a 'path' below one of them, or have the server started"
        + " with --allow-file-root DIR for the directory that holds the files", e.getMessage());
    refused(rule, Path.of("/etc"));
    refused(rule, Path.of(root + "2"));
    refused(rule, root.getParent());
  }

  @Test void shouldRefuseASymbolicLinkOutOfTheRoot() throws Exception {
    Path link = Files.createSymbolicLink(root.resolve("link"), outside);
    SQLException e = refused(rule, link);
    assertEquals("Stream S cannot read '" + link + "': it leads through a symbolic link out of a"
        + " directory this server allows (" + root + "). Give a 'path' below one of them, or have"
        + " the server started with --allow-file-root DIR for the directory that holds the"
        + " files", e.getMessage());
    Files.createDirectories(outside.resolve("inner"));
    refused(rule, link.resolve("inner"));
    // A path below the link that does not exist is judged where it would lead.
    refused(rule, link.resolve("missing/deeper"));
    Path toEtc = Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
    refused(rule, toEtc);
  }

  @Test void shouldRefuseALinkThatLeadsNowhere() throws Exception {
    Path dangling = Files.createSymbolicLink(root.resolve("dangling"), outside.resolve("gone"));
    SQLException e = refused(rule, dangling);
    assertTrue(e.getMessage().contains("leads through a symbolic link that leads nowhere"),
        e.getMessage());
  }

  @Test void shouldPassALinkThatStaysBelowTheRoot() throws Exception {
    Path link = Files.createSymbolicLink(root.resolve("current"), root.resolve("orders"));
    assertEquals(root.resolve("orders").toRealPath(), rule.check("Stream S", link));
  }

  /** A root reached through a link is judged by its real path too. */
  @Test void shouldPassBelowARootThatIsALink() throws Exception {
    Path linkedRoot = Files.createSymbolicLink(dir.resolve("linked"), root);
    FileRootRule linked = new FileRootRule(List.of(linkedRoot));
    assertEquals(root.resolve("orders").toRealPath(),
        linked.check("Stream S", linkedRoot.resolve("orders")));
    refused(linked, linkedRoot.resolve("../secret"));
  }

  @Test void shouldGiveAMissingPathBelowARootAsWrittenForTheConnectorToRefuse() throws Exception {
    assertEquals(root.toRealPath().resolve("missing"), rule.check("Stream S",
        root.resolve("missing")));
  }
}
