package dev.freshet.server.ui;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.server.FreshetServer;
import dev.freshet.server.FreshetServer.Authentication;
import dev.freshet.testkit.BrowserTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI in the machine's Chromium, behind BASIC authentication: the view created over JDBC
 * is listed, its charts grow with its batches, the SQL box shows an error, a pull result and a
 * push query's changed rows as they come, and Stop ends the push query on the server. The page
 * logs no error (a CSP violation would be one). Leaves a screenshot in
 * {@code target/screenshots/web-ui.png}.
 */
@BrowserTest
class WebUiBrowserTest {
  /** Debian's Chromium; Playwright drives it instead of a browser of its own. */
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  /** Generous: a loaded two-core machine runs the server, Chromium and the test at once. */
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String USER = "ann";
  private static final String PASSWORD = "s3cret-ui";
  /** Batches made; batch i has i rows of alice and one of bob. */
  private static final int BATCHES = 12;

  @TempDir Path dir;

  private FreshetServer server;
  private Playwright playwright;
  private BrowserContext browser;
  private Page page;
  /** The browser's console errors and the page's uncaught exceptions. */
  private final List<String> errors = new CopyOnWriteArrayList<>();

  @BeforeEach void start() throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      fail("No Chromium at " + CHROMIUM + ": the web UI's browser test needs it. Install it with"
          + " apt-get install -y --no-install-recommends chromium (.ci/run does)");
    }
    Path users = Files.writeString(dir.resolve("users.properties"), USER + ": " + PASSWORD
        + "\n");
    server = FreshetServer.builder().port(0).uiPort(0)
        .authentication(Authentication.BASIC, users).start();
    playwright = Playwright.create();
    browser = playwright.chromium().launchPersistentContext(
        Files.createDirectories(dir.resolve("chromium-profile")),
        new BrowserType.LaunchPersistentContextOptions()
            .setExecutablePath(CHROMIUM)
            .setHeadless(true)
            .setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"))
            .setHttpCredentials(USER, PASSWORD)
            .setViewportSize(1400, 900));
    browser.setDefaultTimeout(DEADLINE.toMillis());
    PlaywrightAssertions.setDefaultAssertionTimeout(DEADLINE.toMillis());
    page = browser.pages().isEmpty() ? browser.newPage() : browser.pages().get(0);
    page.onConsoleMessage(message -> {
      if (message.type().equals("error")) {
        errors.add(message.text() + " at " + message.location());
      }
    });
    page.onPageError(error -> errors.add("uncaught: " + error));
  }

  @AfterEach void stop() {
    if (browser != null) {
      browser.close();
    }
    if (playwright != null) {
      playwright.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test void shouldFollowAViewAndRunPullAndPushQueriesInTheBrowser() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:freshet:remote:url="
        + server.url(), USER, PASSWORD); Statement sql = connection.createStatement()) {
      // Event times of now and a watermark 5 s behind them: the lag chart has a line to draw.
      sql.executeUpdate("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE, ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
      sql.executeUpdate("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id,"
          + " COUNT(*) AS n, SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");

      page.navigate(server.uiUrl().orElseThrow().resolve("/ui/").toString());
      page.locator("#views tbody tr[data-name=CLICKS_PER_USER]").click();
      assertThat(page.locator("#detail-name")).hasText("CLICKS_PER_USER");
      assertThat(page.locator("#detail-sql")).containsText("GROUP BY user_id");
      assertThat(page.locator("#detail-plan")).not().isEmpty();
      // A property, not an attribute: it stays as long as the row element does.
      page.locator("#views tbody tr[data-name=CLICKS_PER_USER]")
          .evaluate("row => row.kept = true");

      // One INSERT a batch: each waits until the view has processed the one before.
      for (int i = 1; i <= BATCHES; i++) {
        String now = now();
        sql.executeUpdate("INSERT INTO clicks VALUES " + ("('alice', 1.5, " + now + "), ")
            .repeat(i) + "('bob', 1.25, " + now + ")");
        assertTrue(viewQuery().processAllAvailable(DEADLINE), "the view did not catch up");
      }
      page.waitForFunction("n => Number(document.querySelector('#charts').dataset.batches)"
          + " >= n", BATCHES);
      assertEquals(String.valueOf(progressBatches(sql)),
          page.locator("#charts").getAttribute("data-batches"));
      assertEquals(5, page.locator("#charts .uplot canvas").count());
      assertThat(page.locator("#detail-status")).hasText("ACTIVE");
      assertThat(page.locator("#detail-watermark")).containsText("Watermark "
          + lastWatermark(sql) + ", ");
      // The list refreshed (the query's last batch) and kept the view's row, which is the same.
      assertThat(page.locator("#queries tbody tr[data-name=CLICKS_PER_USER] td:nth-child(4)"))
          .hasText(String.valueOf(viewQuery().lastBatchId()));
      assertEquals(true, page.locator("#views tbody tr[data-name=CLICKS_PER_USER]")
          .evaluate("row => row.kept === true"));

      // An error: the SQLSTATE the JDBC driver gets, and the message.
      String state = assertThrows(SQLException.class,
          () -> sql.executeQuery("SELECT * FROM no_such_table")).getSQLState();
      run("SELECT * FROM no_such_table", "error");
      assertEquals(state, page.locator("#sql-error").getAttribute("data-sql-state"));
      assertTrue(page.locator("#sql-error").textContent().contains("NO_SUCH_TABLE"),
          page.locator("#sql-error").textContent());

      // A pull query: the view's rows.
      run("SELECT * FROM clicks_per_user ORDER BY user_id", "done");
      assertEquals(List.of("USER_ID", "N", "TOTAL"), headers());
      // 78 rows of 1.5 and 12 of 1.25 (JSON numbers: 117.0 shows as 117).
      assertEquals(List.of(List.of("alice", "78", "117"), List.of("bob", "12", "15")), rows());

      // A push query: its first batch has every row the stream holds, then each INSERT's
      // changed groups come first in the table.
      page.locator("#sql-input").fill("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
          + " GROUP BY user_id EMIT UPDATE");
      page.locator("#sql-run").click();
      awaitRows(2);
      assertEquals("streaming", page.locator("#sql-status").getAttribute("data-state"));
      assertEquals(List.of("USER_ID", "N", "_BATCH_ID", "_ROW_KIND"), headers());
      List<List<String>> first = List.of(List.of("alice", "78", "0", "INSERT"),
          List.of("bob", "12", "0", "INSERT"));
      assertEquals(first, sorted(rows()));
      String now = now();
      sql.executeUpdate("INSERT INTO clicks VALUES ('alice', 1.0, " + now + "), ('carol', 2.0, "
          + now + "), ('alice', 3.0, " + now + ")");
      awaitRows(4);
      List<List<String>> rows = rows();
      assertEquals(List.of(List.of("alice", "80", "1", "UPDATE"),
          List.of("carol", "1", "1", "INSERT")), sorted(rows.subList(0, 2)));
      assertEquals(first, sorted(rows.subList(2, 4)));
      assertEquals("Push query running: 4 rows", page.locator("#sql-status").textContent());

      // The list shows the push query; Stop aborts the fetch, and the server then stops it.
      String push = pushQueries().get(0);
      page.waitForFunction("name => document.querySelector(`#queries tbody tr[data-name='${name}']"
          + " td:nth-child(2)`)?.textContent === 'push'", push);
      // README.md's screenshot: the view's charts, and the push query listed and running.
      Path screenshot = Path.of("target", "screenshots", "web-ui.png");
      Files.createDirectories(screenshot.getParent());
      page.screenshot(new Page.ScreenshotOptions().setPath(screenshot).setFullPage(true));
      page.locator("#sql-stop").click();
      assertEquals("stopped", page.locator("#sql-status").getAttribute("data-state"));
      page.waitForFunction("() => [...document.querySelectorAll('#queries tbody tr')]"
          + ".every(row => row.cells[1].textContent !== 'push')");
      assertEquals(List.of(), pushQueries());

      // A query that fails shows its status and its error in the list.
      sql.executeUpdate("CREATE STREAM readings (k VARCHAR, v INTEGER)");
      sql.executeUpdate("CREATE MATERIALIZED VIEW ratios AS SELECT k, SUM(100 / v) AS r"
          + " FROM readings GROUP BY k");
      sql.executeUpdate("INSERT INTO readings VALUES ('a', 0)");
      Locator failed = page.locator("#queries tbody tr[data-name=RATIOS]");
      assertThat(failed.locator("td:nth-child(3)")).hasText("FAILED");
      assertThat(failed.locator("td:nth-child(5)")).containsText("22012: Division by zero");
      assertEquals(List.of(), expectedErrorsRemoved());
    }
  }

  /** Runs sql in the SQL box and waits until its status is state. */
  private void run(String sql, String state) {
    page.locator("#sql-input").fill(sql);
    page.locator("#sql-run").click();
    page.waitForFunction("s => document.querySelector('#sql-status').dataset.state === s", state);
  }

  private void awaitRows(int n) {
    page.waitForFunction("n => document.querySelectorAll('#sql-result tbody tr').length >= n",
        n);
    assertEquals(n, page.locator("#sql-result tbody tr").count());
  }

  private List<String> headers() {
    return page.locator("#sql-result thead th").allTextContents();
  }

  @SuppressWarnings("unchecked")
  private List<List<String>> rows() {
    return (List<List<String>>) page.evalOnSelectorAll("#sql-result tbody tr",
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))");
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    return rows.stream().sorted((a, b) -> a.get(0).compareTo(b.get(0))).toList();
  }

  private ContinuousQuery viewQuery() {
    return server.engine().query("CLICKS_PER_USER").orElseThrow();
  }

  /** The batches the engine keeps for the view, as the charts should plot them. */
  private static long progressBatches(Statement sql) throws SQLException {
    try (ResultSet rs = sql.executeQuery("SELECT COUNT(*) FROM sys.query_progress"
        + " WHERE name = 'CLICKS_PER_USER'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The watermark of the view's last batch as the page shows it, e.g. 2026-12-02 11:10:27.123 UTC. */
  private static String lastWatermark(Statement sql) throws Exception {
    try (ResultSet rs = sql.executeQuery("SELECT json FROM sys.query_progress"
        + " WHERE name = 'CLICKS_PER_USER' ORDER BY batch_id DESC LIMIT 1")) {
      rs.next();
      String iso = new com.fasterxml.jackson.databind.ObjectMapper().readTree(rs.getString(1))
          .at("/eventTime/watermark").asText();
      return iso.replace('T', ' ').replace("Z", " UTC");
    }
  }

  /** A TIMESTAMP literal of the time now, in UTC as the engine's event times are. */
  private static String now() {
    return "TIMESTAMP '" + java.time.format.DateTimeFormatter.ofPattern(
        "uuuu-MM-dd HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC)
        .format(java.time.Instant.now()) + "'";
  }

  /** The names of the push queries running on the server. */
  private List<String> pushQueries() {
    return server.engine().continuousQueries().stream()
        .filter(query -> query.pushResult().isPresent())
        .map(ContinuousQuery::name).toList();
  }

  /**
   * The console errors but the one the failing statement caused: Chromium logs every response
   * with an error status, and POST /api/sql answered 400 on purpose.
   */
  private List<String> expectedErrorsRemoved() {
    List<String> unexpected = errors.stream().filter(error -> !(error.startsWith(
        "Failed to load resource: the server responded with a status of 400")
        && error.contains("/api/sql"))).toList();
    assertEquals(1, errors.size() - unexpected.size(), errors::toString);
    return unexpected;
  }
}
