package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link in README.md and docs/ that points into the repository resolves: to a file or
 * directory of the repository, and to a heading of the file it names (GitHub's anchors).
 */
class DocumentationLinksTest {
  /** {@code [text](target)}, not an image's or a link's text with brackets inside. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$", Pattern.MULTILINE);

  @Test void shouldResolveEveryLinkIntoTheRepository() throws IOException {
    Path root = repositoryRoot();
    List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> files = Files.walk(docs)) {
        files.filter(f -> f.toString().endsWith(".md")).forEach(documents::add);
      }
    }
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path document : documents) {
      String text = Files.readString(document);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue;  // http:, https:, mailto: leave the repository
        }
        links++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? document
            : document.getParent().resolve(file).normalize();
        if (!resolved.startsWith(root) || !Files.exists(resolved)) {
          broken.add(root.relativize(document) + ": " + target + " (no such file in the"
              + " repository)");
        } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(root.relativize(document) + ": " + target + " (no such heading)");
        }
      }
    }
    assertEquals(List.of(), broken);
    assertTrue(links > 0, "no link checked");
  }

  /** The anchors GitHub gives the headings of a Markdown file. */
  private static Set<String> anchors(Path file) throws IOException {
    Set<String> anchors = new HashSet<>();
    if (!file.toString().endsWith(".md")) {
      return anchors;
    }
    Matcher m = HEADING.matcher(Files.readString(file));
    while (m.find()) {
      anchors.add(m.group(1).trim().toLowerCase(Locale.ROOT)
          .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
    }
    return anchors;
  }

  /** The directory of the parent pom: the module's parent. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !(Files.exists(dir.resolve("README.md"))
        && Files.exists(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("server")))) {
      dir = dir.getParent();
    }
    assertTrue(dir != null, "no repository root above " + Path.of("").toAbsolutePath());
    return dir;
  }
}
