package dev.freshet.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;
import org.apache.calcite.plan.RelRule;
import org.junit.jupiter.api.Test;

/**
 * The rules' generated configurations: each DEFAULT names its rule and builds it, a copy with a
 * changed property leaves the DEFAULT as it was, and a configuration no rule can run with is
 * refused when it is made.
 */
class RuleConfigTest {
  private static final List<RelRule.Config> DEFAULTS = List.of(
      StreamingAggregateRule.Config.DEFAULT, StreamDeduplicateRule.Config.DEFAULT,
      StreamTopNRule.Config.DEFAULT, WindowTableFunctionRule.Config.DEFAULT,
      GroupWindowRule.Config.DEFAULT);

  @Test void shouldNameAndBuildEachRule() {
    for (RelRule.Config config : DEFAULTS) {
      String rule = config.toRule().getClass().getSimpleName();
      assertEquals(rule, config.description());
      assertEquals(rule, config.toRule().toString());
    }
  }

  @Test void shouldCopyOnChangeAndKeepTheDefault() {
    StreamingAggregateRule.Config complete = StreamingAggregateRule.Config.DEFAULT
        .withOutputMode(OutputMode.COMPLETE).withNumPartitions(4);
    assertNotSame(StreamingAggregateRule.Config.DEFAULT, complete);
    assertEquals(OutputMode.COMPLETE, complete.outputMode());
    assertEquals(4, complete.numPartitions());
    assertEquals(OutputMode.UPDATE, StreamingAggregateRule.Config.DEFAULT.outputMode());
    assertEquals(1, StreamingAggregateRule.Config.DEFAULT.numPartitions());
    assertEquals("StreamingAggregateRule", complete.description());
  }

  @Test void shouldRefuseNoPartitions() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StreamingAggregateRule.Config.DEFAULT.withNumPartitions(0));
    assertTrue(e.getMessage().contains("numPartitions must be positive: 0"), e.getMessage());
  }
}
