package dev.freshet.jdbc.crash;

import dev.freshet.testkit.CrashTest;

/** {@link ExactlyOnceCrashTest}'s kill loop with the in-memory state store (checkpointed as delta files). */
@CrashTest
class InMemoryExactlyOnceCrashTest extends ExactlyOnceCrashTest {
  @Override String provider() {
    return "memory";
  }
}
