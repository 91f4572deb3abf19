package dev.freshet.pgwire.catalog;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The captured catalog queries of {@code src/test/resources/catalog-queries} (format in its
 * README.md): one {@link Query} per statement, with its file and parameters.
 */
final class CatalogCorpus {
  /** One captured statement. */
  record Query(String file, String sql, List<Object> parameters) {
    @Override public String toString() {
      return file + ": " + sql.strip().replaceAll("\\s+", " ");
    }
  }

  private CatalogCorpus() {
  }

  static Path directory() {
    try {
      return Path.of(CatalogCorpus.class.getResource("/catalog-queries").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every statement of every file, in file-name order. */
  static List<Query> all() throws IOException {
    List<Query> queries = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory())) {
      for (Path file : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
        queries.addAll(read(file));
      }
    }
    return queries;
  }

  /** The statements of one file. */
  static List<Query> read(Path file) throws IOException {
    List<Query> queries = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    List<Object> parameters = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.startsWith("#") && sql.length() == 0) {
        continue;
      }
      if (line.startsWith("-- parameters: ") && sql.length() == 0) {
        parameters = parameters(line.substring("-- parameters: ".length()));
      } else if (line.equals(";;")) {
        queries.add(new Query(file.getFileName().toString(), sql.toString(), parameters));
        sql.setLength(0);
        parameters = new ArrayList<>();
      } else {
        sql.append(line).append('\n');
      }
    }
    return queries;
  }

  /** {@code $1 = 'public', $2 = NULL} as PostgreSQL logs parameters. */
  static List<Object> parameters(String text) {
    List<Object> values = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int eq = text.indexOf(" = ", i);
      if (eq < 0) {
        break;
      }
      int start = eq + 3;
      if (text.startsWith("NULL", start)) {
        values.add(null);
        i = start + 4;
      } else {
        StringBuilder value = new StringBuilder();
        int j = start + 1;
        while (j < text.length()) {
          char c = text.charAt(j);
          if (c == '\'') {
            if (j + 1 < text.length() && text.charAt(j + 1) == '\'') {
              value.append('\'');
              j += 2;
              continue;
            }
            break;
          }
          value.append(c);
          j++;
        }
        values.add(value.toString());
        i = j + 1;
      }
      int comma = text.indexOf(", $", i);
      if (comma < 0) {
        break;
      }
      i = comma + 2;
    }
    return values;
  }
}
