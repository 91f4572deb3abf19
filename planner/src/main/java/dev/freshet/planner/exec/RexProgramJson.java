package dev.freshet.planner.exec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.externalize.RelJson;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.JsonBuilder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A calc's {@link RexProgram} as JSON and back, in Calcite's own JSON form of types and
 * expressions ({@link RelJson}), so that a stored plan keeps the exact expressions a view was
 * created with.
 *
 * <p>The program is written expanded: {@code input} (the input row type), {@code projects} (one
 * expression per output column, over input references only), {@code condition} (absent without
 * a filter) and {@code output} (the output row type). Writing checks that reading gives the same
 * program back, so a calc whose expressions JSON cannot carry fails when the plan is made, not
 * when a view restarts.
 *
 * <pre>{@code
 * JsonNode json = RexProgramJson.write(calc.getProgram());
 * RexProgram program = RexProgramJson.read(json, typeFactory);
 * }</pre>
 */
public final class RexProgramJson {
  private static final JsonMapper MAPPER = ExecPlan.mapper();

  private RexProgramJson() {
  }

  /**
   * {@code program} as JSON.
   *
   * @throws IllegalArgumentException if JSON cannot carry one of its expressions exactly
   */
  public static JsonNode write(RexProgram program, RelDataTypeFactory typeFactory) {
    program = withoutSearch(program, typeFactory);
    RelJson json = RelJson.create().withJsonBuilder(new JsonBuilder());
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("input", json.toJson(program.getInputRowType()));
    List<Object> projects = new ArrayList<>();
    for (RexLocalRef project : program.getProjectList()) {
      projects.add(expression(json, program.expandLocalRef(project)));
    }
    map.put("projects", projects);
    if (program.getCondition() != null) {
      map.put("condition", expression(json, program.expandLocalRef(program.getCondition())));
    }
    map.put("output", json.toJson(program.getOutputRowType()));
    JsonNode tree;
    try {
      // Through text, as a stored plan is read: the first run and a restart run the same tree.
      tree = MAPPER.readTree(MAPPER.writeValueAsString(map));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot write a calc's program as JSON", e);
    }
    RexProgram back = read(tree, typeFactory);
    if (!same(program, back)) {
      throw new IllegalArgumentException("Calcite's JSON form does not carry this calc exactly:"
          + " it reads back as " + back + " instead of " + program);
    }
    return tree;
  }

  /**
   * {@code program} with each {@code SEARCH} (Calcite's simplified form of a range or an IN list,
   * e.g. {@code n >= 10 AND n < 100}) written out as comparisons: the {@code Sarg} it carries has
   * no JSON form that Calcite reads back ("Error creating RangeSet from JSON"), while the
   * comparisons compute the same.
   */
  private static RexProgram withoutSearch(RexProgram program, RelDataTypeFactory typeFactory) {
    RexBuilder rexBuilder = new RexBuilder(typeFactory);
    boolean changed = false;
    List<RexNode> projects = new ArrayList<>();
    for (RexLocalRef project : program.getProjectList()) {
      RexNode e = program.expandLocalRef(project);
      RexNode expanded = RexUtil.expandSearch(rexBuilder, null, e);
      changed |= expanded != e;
      projects.add(expanded);
    }
    RexNode condition = null;
    if (program.getCondition() != null) {
      RexNode e = program.expandLocalRef(program.getCondition());
      condition = RexUtil.expandSearch(rexBuilder, null, e);
      changed |= condition != e;
    }
    return changed ? RexProgram.create(program.getInputRowType(), projects, condition,
        program.getOutputRowType(), rexBuilder) : program;
  }

  /**
   * Reads a program that {@link #write} wrote.
   *
   * @throws UnreadablePlanException if {@code json} is not such a program, or names a type or
   *     function this code does not know
   */
  public static RexProgram read(JsonNode json, RelDataTypeFactory typeFactory) {
    if (!(json instanceof ObjectNode) || !json.path("projects").isArray()
        || !json.has("input") || !json.has("output")) {
      throw new UnreadablePlanException("a calc's program needs \"input\", \"projects\" and"
          + " \"output\": " + json, null);
    }
    try {
      RelJson relJson = RelJson.create().withJsonBuilder(new JsonBuilder());
      RelDataType input = relJson.toType(typeFactory, toJava(json.get("input")));
      RelDataType output = relJson.toType(typeFactory, toJava(json.get("output")));
      RexBuilder rexBuilder = new RexBuilder(typeFactory);
      RelOptCluster cluster =
          RelOptCluster.create(new HepPlanner(HepProgram.builder().build()), rexBuilder);
      // Input references are typed by the program's input row type, not by rels.
      RelJson reader = relJson.withInputTranslator((rj, index, map, relInput) ->
          rexBuilder.makeInputRef(input.getFieldList().get(index).getType(), index));
      List<RexNode> projects = new ArrayList<>();
      for (JsonNode project : json.get("projects")) {
        projects.add(expression(reader, cluster, toJava(project)));
      }
      JsonNode conditionJson = json.get("condition");
      RexNode condition = conditionJson == null ? null
          : expression(reader, cluster, toJava(conditionJson));
      return RexProgram.create(input, projects, condition, output, rexBuilder);
    } catch (RuntimeException e) {
      // RelJson throws plain runtime exceptions for names it does not know.
      throw new UnreadablePlanException("a calc's program cannot be read: " + e, e);
    }
  }

  /**
   * {@code e} in Calcite's JSON form, with the type of every call and literal: Calcite writes a
   * call's type only where it cannot be derived, but a derived type can differ from the planned
   * one (a CASE over CHAR literals the planner typed VARCHAR).
   */
  private static Object expression(RelJson json, RexNode e) {
    Object written = json.toJson(e);
    addTypes(json, e, written);
    return written;
  }

  @SuppressWarnings("unchecked")
  private static void addTypes(RelJson json, RexNode e, @Nullable Object written) {
    if (!(written instanceof Map)) {
      return;
    }
    Map<String, Object> map = (Map<String, Object>) written;
    if (e instanceof RexCall call && map.get("operands") instanceof List<?> operands
        && operands.size() == call.getOperands().size()) {
      map.putIfAbsent("type", json.toJson(call.getType()));
      for (int i = 0; i < operands.size(); i++) {
        addTypes(json, call.getOperands().get(i), operands.get(i));
      }
    } else if (e instanceof RexLiteral) {
      map.putIfAbsent("type", json.toJson(e.getType()));
    }
  }

  /**
   * Reads an expression that {@link #expression(RelJson, RexNode)} wrote. Calcite reads a
   * character literal as CHAR of its length whatever type it was written with; such a literal
   * is cast back to its written type, which folds into a literal of that type, as the planner
   * made it.
   */
  private static RexNode expression(RelJson reader, RelOptCluster cluster, @Nullable Object json) {
    return retype(reader, cluster, reader.toRex(cluster, json), json);
  }

  @SuppressWarnings("unchecked")
  private static RexNode retype(RelJson reader, RelOptCluster cluster, RexNode e,
      @Nullable Object json) {
    if (!(json instanceof Map)) {
      return e;
    }
    Map<String, Object> map = (Map<String, Object>) json;
    RexBuilder rexBuilder = cluster.getRexBuilder();
    if (e instanceof RexLiteral literal && map.containsKey("type")) {
      RelDataType type = reader.toType(cluster.getTypeFactory(), map.get("type"));
      return type.equals(literal.getType()) ? e : rexBuilder.makeCast(type, literal, true, false);
    }
    if (e instanceof RexCall call && map.get("operands") instanceof List<?> operands
        && operands.size() == call.getOperands().size()) {
      List<RexNode> retyped = new ArrayList<>();
      boolean changed = false;
      for (int i = 0; i < operands.size(); i++) {
        RexNode operand = call.getOperands().get(i);
        RexNode now = retype(reader, cluster, operand, operands.get(i));
        changed |= now != operand;
        retyped.add(now);
      }
      return changed ? call.clone(call.getType(), retyped) : e;
    }
    return e;
  }

  /** Whether two programs compute the same columns from the same input, by expression digest. */
  private static boolean same(RexProgram a, RexProgram b) {
    if (!a.getInputRowType().equals(b.getInputRowType())
        || !a.getOutputRowType().equals(b.getOutputRowType())
        || a.getProjectList().size() != b.getProjectList().size()
        || (a.getCondition() == null) != (b.getCondition() == null)) {
      return false;
    }
    for (int i = 0; i < a.getProjectList().size(); i++) {
      if (!sameExpression(a.expandLocalRef(a.getProjectList().get(i)),
          b.expandLocalRef(b.getProjectList().get(i)))) {
        return false;
      }
    }
    return a.getCondition() == null
        || sameExpression(a.expandLocalRef(a.getCondition()), b.expandLocalRef(b.getCondition()));
  }

  private static boolean sameExpression(RexNode a, RexNode b) {
    return a.toString().equals(b.toString()) && a.getType().equals(b.getType());
  }

  private static @Nullable Object toJava(JsonNode node) {
    return MAPPER.convertValue(node, Object.class);
  }
}
