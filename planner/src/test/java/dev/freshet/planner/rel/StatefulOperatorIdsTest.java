package dev.freshet.planner.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.sql.FreshetSqlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** {@link StatefulOperatorIds}: the planner, not its rules, numbers the stateful operators. */
class StatefulOperatorIdsTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  StatefulOperatorIdsTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("N", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("M", 2)));
  }

  private RelNode logical() throws Exception {
    return planner.planQuery(FreshetSqlParser.parse(
        "SELECT STREAM k, SUM(n) AS t FROM m GROUP BY k"), null, 1).logical();
  }

  @Test void shouldNumberTheStatefulOperatorsFromTheSourceUp() throws Exception {
    RelNode renumbered = StatefulOperatorIds.assign(withIds(logical(), 7));
    assertEquals(List.of(0, 0), ids(renumbered));
  }

  @Test void shouldReturnAPlanNumberedAlreadyAsItIs() throws Exception {
    RelNode logical = logical();
    assertEquals(List.of(0, 0), ids(logical));
    assertSame(logical, StatefulOperatorIds.assign(logical));
  }

  /** {@code rel} with every restore and save given operator id {@code id}. */
  private static RelNode withIds(RelNode rel, int id) {
    List<RelNode> inputs = new ArrayList<>();
    for (RelNode input : rel.getInputs()) {
      inputs.add(withIds(input, id));
    }
    RelNode copy = rel.getInputs().isEmpty() ? rel : rel.copy(rel.getTraitSet(), inputs);
    if (copy instanceof StateStoreRestore r) {
      return r.copy(r.getTraitSet(), r.getInput(), id);
    }
    if (copy instanceof StateStoreSave s) {
      return s.copy(s.getTraitSet(), s.getInput(), id);
    }
    return copy;
  }

  /** The operator ids of the saves and restores of {@code rel}, from the root down. */
  private static List<Integer> ids(RelNode rel) {
    List<Integer> ids = new ArrayList<>();
    for (RelNode node = rel; ; node = node.getInput(0)) {
      if (node instanceof StateStoreSave s) {
        ids.add(s.operatorId());
      } else if (node instanceof StateStoreRestore r) {
        ids.add(r.operatorId());
      }
      if (node.getInputs().size() != 1) {
        return ids;
      }
    }
  }
}
