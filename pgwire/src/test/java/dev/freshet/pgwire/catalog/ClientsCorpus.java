package dev.freshet.pgwire.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The statement corpus of the "clients" part of issue 34 ({@code pgwire/src/test/resources/corpus}
 * on its branch, copied at e90ae1d3 into {@code catalog-queries/from-clients}): one JSON object
 * per line with {@code client}, {@code action}, {@code sql} and {@code params}. Read with a small
 * parser of that flat shape, as the test classpath has no JSON library of its own.
 */
final class ClientsCorpus {
  private ClientsCorpus() {
  }

  /** Every line of every file, as {@link CatalogCorpus.Query}s named file:action. */
  static List<CatalogCorpus.Query> all() throws IOException {
    List<CatalogCorpus.Query> queries = new ArrayList<>();
    Path dir = CatalogCorpus.directory().resolve("from-clients");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (line.isBlank()) {
            continue;
          }
          Map<String, Object> o = parse(line);
          @SuppressWarnings("unchecked")
          List<Object> params = (List<Object>) o.getOrDefault("params", List.of());
          queries.add(new CatalogCorpus.Query(file.getFileName() + " " + o.get("action"),
              (String) o.get("sql"), params));
        }
      }
    }
    return queries;
  }

  /** A flat JSON object whose values are strings, numbers, null or arrays of those. */
  static Map<String, Object> parse(String json) {
    Map<String, Object> o = new LinkedHashMap<>();
    int[] at = {json.indexOf('{') + 1};
    while (true) {
      skip(json, at);
      if (json.charAt(at[0]) == '}') {
        return o;
      }
      String key = string(json, at);
      skip(json, at);
      at[0]++; // ':'
      o.put(key, value(json, at));
      skip(json, at);
      if (json.charAt(at[0]) == ',') {
        at[0]++;
      }
    }
  }

  private static Object value(String json, int[] at) {
    skip(json, at);
    char c = json.charAt(at[0]);
    if (c == '"') {
      return string(json, at);
    }
    if (c == '[') {
      at[0]++;
      List<Object> list = new ArrayList<>();
      while (true) {
        skip(json, at);
        if (json.charAt(at[0]) == ']') {
          at[0]++;
          return list;
        }
        list.add(value(json, at));
        skip(json, at);
        if (json.charAt(at[0]) == ',') {
          at[0]++;
        }
      }
    }
    int start = at[0];
    while (",}] ".indexOf(json.charAt(at[0])) < 0) {
      at[0]++;
    }
    String word = json.substring(start, at[0]);
    return word.equals("null") ? null : word;
  }

  private static String string(String json, int[] at) {
    StringBuilder b = new StringBuilder();
    int i = at[0] + 1;
    while (json.charAt(i) != '"') {
      char c = json.charAt(i);
      if (c == '\\') {
        char e = json.charAt(i + 1);
        switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'u' -> {
          b.append((char) Integer.parseInt(json.substring(i + 2, i + 6), 16));
          i += 4;
        }
        default -> b.append(e);
        }
        i += 2;
      } else {
        b.append(c);
        i++;
      }
    }
    at[0] = i + 1;
    return b.toString();
  }

  private static void skip(String json, int[] at) {
    while (Character.isWhitespace(json.charAt(at[0]))) {
      at[0]++;
    }
  }
}
