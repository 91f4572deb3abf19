package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A class path file is found in a directory of classes and in a jar, but never a directory
 * (whose URL would list its entries), even one named like a file, nor a file of another type.
 */
class ClasspathFileTest {
  private static final byte[] SCRIPT = "console.log('x');".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  @Test void shouldFindFilesButNotDirectoriesInADirectoryOfClasses() throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Files.write(Files.createDirectories(classes.resolve("web")).resolve("a.js"), SCRIPT);
    Files.createDirectories(classes.resolve("web/folder.js"));
    Files.write(classes.resolve("web/notes.txt"), SCRIPT);
    try (URLClassLoader loader = loader(classes.toUri().toURL())) {
      assertFound(loader);
    }
  }

  @Test void shouldFindFilesButNotDirectoriesInAJar() throws Exception {
    Path jar = dir.resolve("web.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("web/"));
      out.putNextEntry(new JarEntry("web/folder.js/"));
      entry(out, "web/a.js");
      entry(out, "web/notes.txt");
    }
    try (URLClassLoader loader = loader(jar.toUri().toURL())) {
      assertFound(loader);
    }
  }

  private static void assertFound(ClassLoader loader) throws Exception {
    ClasspathFile script = ClasspathFile.find(loader, "web/a.js").orElseThrow();
    assertArrayEquals(SCRIPT, script.bytes());
    assertEquals("text/javascript;charset=utf-8", script.contentType());
    assertEquals(Optional.empty(), ClasspathFile.find(loader, "web/folder.js"));
    assertEquals(Optional.empty(), ClasspathFile.find(loader, "web/folder.js/"));
    assertEquals(Optional.empty(), ClasspathFile.find(loader, "web/notes.txt"));
    assertEquals(Optional.empty(), ClasspathFile.find(loader, "web/missing.js"));
  }

  private static void entry(JarOutputStream out, String name) throws Exception {
    out.putNextEntry(new JarEntry(name));
    OutputStream stream = out;
    stream.write(SCRIPT);
    out.closeEntry();
  }

  private static URLClassLoader loader(URL url) {
    // No parent: only the test's directory or jar, not the server's own resources.
    return new URLClassLoader(new URL[] {url}, null);
  }
}
