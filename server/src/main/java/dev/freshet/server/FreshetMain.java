package dev.freshet.server;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code freshet} command: {@code freshet demo} runs a live continuous query on an embedded
 * engine, {@code freshet serve} serves an engine over JDBC, {@code freshet console} opens a SQL
 * console.
 *
 * <pre>
 * java -jar server/target/freshet.jar demo --batches 20
 * java -jar server/target/freshet.jar serve --port 8765
 * </pre>
 */
@Command(name = "freshet", mixinStandardHelpOptions = true, version = "Freshet 0.1.0",
    description = "Continuous SQL over streams, served over JDBC.",
    subcommands = {DemoCommand.class, ServeCommand.class, ConsoleCommand.class})
public final class FreshetMain implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new FreshetMain()).execute(args));
  }

  @Override public void run() {
    spec.commandLine().usage(System.out);
  }
}
