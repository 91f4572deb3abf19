package dev.freshet.engine;

import dev.freshet.planner.FreshetPlanner;

/**
 * Test access to an embedded engine's planner, whose catalog holds the streams its DDL declared
 * exactly as the server would (a Kafka stream with the engine's checked {@code KafkaSourceSpec}).
 * It lives in the engine's package because the engine keeps its planner to itself.
 *
 * <pre>{@code
 * engine.openSession().execute("CREATE STREAM s (...) WITH (connector = 'kafka', ...)");
 * StreamTable s = EnginePlanners.of(engine).catalog().stream("S").orElseThrow();
 * }</pre>
 */
public final class EnginePlanners {
  private EnginePlanners() {
  }

  public static FreshetPlanner of(Engine engine) {
    return engine.planner();
  }
}
