package dev.freshet.server.archfixture;

/**
 * Classes that break the server's architecture rules, for {@code ArchitectureTest} to prove that
 * each rule can fail. Test sources only: the real check never sees them.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Reads a query's progress from the executor's runtime, not through the engine. */
  public static final class KnowsExecutorRuntime {
    dev.freshet.executor.runtime.StreamingQueryProgress progress;
  }
}
