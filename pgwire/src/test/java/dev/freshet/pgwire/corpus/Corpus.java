package dev.freshet.pgwire.corpus;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The statement corpus: what real PostgreSQL clients send, one file per client in
 * {@code src/test/resources/corpus/} (the README there says how it is made), for tests to
 * replay against Freshet's endpoint.
 *
 * <pre>{@code
 * for (String client : Corpus.CAPTURED) {
 *   for (CorpusStatement s : Corpus.load(client)) { ... replay s.sql() with s.params() ... }
 * }
 * }</pre>
 */
public final class Corpus {
  /** The clients captured from their traffic with a real PostgreSQL 15 (CorpusCapture). */
  public static final List<String> CAPTURED =
      List.of("psql", "pgjdbc", "sqlalchemy-psycopg2", "psycopg", "node-postgres");
  /** The clients whose statements were read from their public source, not captured. */
  public static final List<String> FROM_SOURCE =
      List.of("metabase", "grafana", "dbeaver", "npgsql");

  private static final ObjectMapper JSON = new ObjectMapper();

  private Corpus() {
  }

  /** A client's statements in the order it sent them, from {@code corpus/<client>.jsonl}. */
  public static List<CorpusStatement> load(String client) {
    String resource = "/corpus/" + client + ".jsonl";
    try (InputStream in = Corpus.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("No corpus for client " + client + " (" + resource
            + "); the clients are " + CAPTURED + " and " + FROM_SOURCE);
      }
      return read(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)),
          resource);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + resource, e);
    }
  }

  static List<CorpusStatement> read(BufferedReader reader, String name) throws IOException {
    List<CorpusStatement> statements = new ArrayList<>();
    int lineNumber = 0;
    for (String line; (line = reader.readLine()) != null; ) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      try {
        statements.add(JSON.readValue(line, CorpusStatement.class));
      } catch (IOException | IllegalArgumentException | NullPointerException e) {
        throw new IllegalStateException(name + ":" + lineNumber + " is not a corpus statement: "
            + e.getMessage(), e);
      }
    }
    return statements;
  }

  /** Writes statements as the corpus keeps them: one JSON object a line. */
  static void write(List<CorpusStatement> statements, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (CorpusStatement s : statements) {
        out.write(JSON.writeValueAsString(s));
        out.write('\n');
      }
    }
  }
}
