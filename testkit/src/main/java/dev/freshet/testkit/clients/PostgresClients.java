package dev.freshet.testkit.clients;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real PostgreSQL clients the conformance tests run, where {@code ./run-tests} installs them:
 * psql 15 (Debian's {@code postgresql-client}), Debian's Python 3 with psycopg 3
 * ({@code python3-psycopg}), psycopg2 ({@code python3-psycopg2}) and SQLAlchemy 1.4
 * ({@code python3-sqlalchemy}), and Node.js with node-postgres ({@code pg} from npm, pinned in
 * {@code pgwire/src/test/node/package.json}).
 *
 * <pre>{@code
 * ExternalClient.of(PostgresClients.python().toString(), "-c", script)
 *     .env("PGPASSWORD", "secret").run().requireSuccess();
 * ExternalClient.of(PostgresClients.node().toString(), "-e", script)
 *     .env("NODE_PATH", PostgresClients.nodeModules().toString()).run().requireSuccess();
 * }</pre>
 *
 * <p>A missing client fails the test (an {@link AssertionError} naming the package that
 * {@code ./run-tests} installs and how to install it) rather than skipping it: CI installs
 * every one, so a missing one is a broken machine, not a reason to pass.
 *
 * <p>Debian's Python is {@code /usr/bin/python3}, not whatever {@code python3} is first on the
 * PATH (a pyenv one has none of Debian's packages).
 */
public final class PostgresClients {
  /** Debian's psql (postgresql-client-common's wrapper picks the newest installed major). */
  public static final Path PSQL = Path.of("/usr/bin/psql");
  /** Debian's Python 3, the one Debian's python3-* packages install into. */
  public static final Path PYTHON = Path.of("/usr/bin/python3");
  /** Node.js, Debian's or NodeSource's. */
  public static final Path NODE = Path.of("/usr/bin/node");
  /**
   * Where {@code ./run-tests} installs node-postgres, relative to the pgwire module (the test
   * JVM's working directory); the system property {@code freshet.nodeModules} names another.
   */
  public static final Path NODE_MODULES = Path.of("target", "node-clients", "node_modules");

  private static final String RUN_TESTS = "./run-tests installs it";
  private static final Map<String, String> CHECKED = new ConcurrentHashMap<>();

  private PostgresClients() {
  }

  /** psql, checked to run; e.g. {@code /usr/bin/psql}. */
  public static Path psql() {
    require(PSQL, "postgresql-client");
    CHECKED.computeIfAbsent("psql", k -> ExternalClient.of(PSQL.toString(), "--version")
        .timeout(Duration.ofSeconds(30)).run().requireSuccess().stdout().strip());
    return PSQL;
  }

  /** psql's version line, e.g. {@code psql (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)}. */
  public static String psqlVersion() {
    psql();
    return CHECKED.get("psql");
  }

  /**
   * Debian's Python with psycopg, psycopg2 and SQLAlchemy 1.4 importable; e.g.
   * {@code /usr/bin/python3}.
   */
  public static Path python() {
    require(PYTHON, "python3");
    CHECKED.computeIfAbsent("python", k -> checkPythonModules());
    return PYTHON;
  }

  /** The versions of Debian's Python modules, e.g. {@code psycopg 3.1.7, psycopg2 2.9.5 ...}. */
  public static String pythonVersions() {
    python();
    return CHECKED.get("python");
  }

  /** Node.js, e.g. {@code /usr/bin/node}. */
  public static Path node() {
    require(NODE, "nodejs");
    return NODE;
  }

  /**
   * The {@code node_modules} directory holding node-postgres ({@code pg}); give it to node as
   * {@code NODE_PATH}.
   */
  public static Path nodeModules() {
    node();
    Path modules = Path.of(System.getProperty("freshet.nodeModules", NODE_MODULES.toString()))
        .toAbsolutePath();
    if (!Files.isRegularFile(modules.resolve("pg").resolve("package.json"))) {
      throw new AssertionError("node-postgres (npm's pg) is not installed in " + modules
          + ": " + RUN_TESTS + " (npm ci --prefix pgwire/target/node-clients, from"
          + " pgwire/src/test/node/package.json), or set -Dfreshet.nodeModules=DIR");
    }
    return modules;
  }

  /** Fails unless the file is an executable, naming the Debian package that provides it. */
  static void require(Path program, String debianPackage) {
    if (!Files.isExecutable(program)) {
      throw new AssertionError(program + " is missing: " + RUN_TESTS
          + " (apt-get install --no-install-recommends " + debianPackage + ")");
    }
  }

  private static String checkPythonModules() {
    // One interpreter start for all three: each import is tried, and a missing one named.
    String script = String.join("\n",
        "import importlib",
        "for m, p in (('psycopg', 'python3-psycopg'), ('psycopg2', 'python3-psycopg2'),",
        "             ('sqlalchemy', 'python3-sqlalchemy')):",
        "    try:",
        "        v = importlib.import_module(m).__version__.split(' ')[0]",
        "        print(m, v)",
        "    except ImportError:",
        "        print('missing', m, p)");
    ClientResult r = ExternalClient.of(PYTHON.toString(), "-c", script)
        .timeout(Duration.ofSeconds(60)).run().requireSuccess();
    StringBuilder versions = new StringBuilder();
    for (String line : r.stdout().strip().split("\n")) {
      String[] words = line.strip().split(" ");
      if (words[0].equals("missing")) {
        throw new AssertionError("Python module " + words[1] + " is missing from " + PYTHON
            + ": " + RUN_TESTS + " (apt-get install --no-install-recommends " + words[2] + ")");
      }
      if (words[0].equals("sqlalchemy") && !words[1].startsWith("1.4.")) {
        throw new AssertionError("SQLAlchemy " + words[1] + " in " + PYTHON + ", but the tests"
            + " run SQLAlchemy 1.4 (the version Superset pins; Debian 12's python3-sqlalchemy)");
      }
      versions.append(versions.length() == 0 ? "" : ", ").append(line.strip());
    }
    return versions.toString();
  }
}
