package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The README's demo command shows a GROUP BY updating live. */
class DemoCommandTest {
  private static final Pattern UPDATE = Pattern.compile("-> (\\w+)\\s+clicks=(\\d+)");

  @Test void shouldShowAtLeastThreeSuccessiveUpdatesOfOneKey() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int exit = new CommandLine(new DemoCommand(out))
        .execute("--batches", "12", "--interval-ms", "0");
    String output = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, output);

    Map<String, List<Long>> counts = new HashMap<>();
    Matcher m = UPDATE.matcher(output);
    while (m.find()) {
      counts.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(Long.parseLong(m.group(2)));
    }
    List<Long> longest = counts.values().stream().max((a, b) -> a.size() - b.size()).orElseThrow();
    assertTrue(longest.size() >= 3, output);
    for (int i = 1; i < longest.size(); i++) {
      assertTrue(longest.get(i) > longest.get(i - 1), "counts must grow: " + longest);
    }
  }

  @Test void shouldServeTheWebUiWhenAskedAndSayWhere() throws Exception {
    int port = FreePorts.loopback();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int exit = new CommandLine(new DemoCommand(out))
        .execute("--batches", "2", "--interval-ms", "0", "--ui-port", String.valueOf(port));
    String output = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, output);
    assertTrue(output.contains("Web UI: http://127.0.0.1:" + port + "/ui/"), output);
    // The demo's engine lives on in this JVM, and its UI with it.
    HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(302, page.statusCode());
  }

  @Test void shouldRefuseAUiPortThatIsNoPort() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine command = new CommandLine(new DemoCommand(new PrintStream(new ByteArrayOutputStream())));
    command.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
    int exit = command.execute("--ui-port", "0");
    assertEquals(2, exit);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains(
        "--ui-port must be a port between 1 and 65535, not 0"), err.toString(StandardCharsets.UTF_8));
  }
}
