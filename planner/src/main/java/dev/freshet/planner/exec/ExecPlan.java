package dev.freshet.planner.exec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A continuous query's execution plan as plain, versioned records: its operators from the source
 * up, each with the id the planner assigned and, if stateful, its state store's key and value
 * schema. A view writes it into its checkpoint when it is created; a restart compares the plan
 * the running code makes with it (see {@link PlanCompatibility}), so that state is never read
 * with a layout other than the one it was written with.
 *
 * <pre>{@code
 * ExecPlan plan = ExecPlanGenerator.generate(plannedQuery);
 * String json = plan.toJson();           // {"version" : 1, "nodes" : [ ... ] }
 * ExecPlan stored = ExecPlan.fromJson(json);
 * List<String> differences = PlanCompatibility.differences(stored, plan);
 * }</pre>
 *
 * @param version the format of the plan; {@link #VERSION} for plans this code writes
 * <p>A plan that reads several streams (a join, a union) is a tree: its nodes are listed inputs
 * first (a node's {@link ExecNode#inputIds() inputs} come before it), its last node the root,
 * and each scan starts a branch.
 *
 * @param nodes the operators, from the one next to the source to the one next to the sink
 */
public record ExecPlan(int version, List<ExecNode> nodes) {
  /** The one plan format this code reads and writes. */
  public static final int VERSION = 1;

  /** Thread-safe once built. Strict: a field this code does not know is an error, not skipped. */
  private static final JsonMapper MAPPER = mapper();

  public ExecPlan {
    nodes = List.copyOf(nodes);
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).id() != i) {
        throw new IllegalArgumentException("node " + i + " of the plan has id "
            + nodes.get(i).id() + ": a node's id is its position");
      }
    }
  }

  /** A plan in this code's format. */
  public static ExecPlan of(List<ExecNode> nodes) {
    return new ExecPlan(VERSION, nodes);
  }

  /**
   * A new mapper of plan JSON: strict, and exact with numbers, which a calc's DECIMAL literals
   * need (a fraction is a {@code BigDecimal}, never a {@code double}).
   */
  static JsonMapper mapper() {
    return JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
        .build();
  }

  /** The nodes whose rows {@code node} reads, in order: none for a scan. */
  public List<ExecNode> inputs(ExecNode node) {
    List<ExecNode> inputs = new ArrayList<>();
    for (int id : node.inputIds()) {
      inputs.add(nodes.get(id));
    }
    return inputs;
  }

  /** The scans of the plan, in order: one per stream the plan reads. */
  public List<ExecNode> scans() {
    List<ExecNode> scans = new ArrayList<>();
    for (ExecNode node : nodes) {
      if (node.operator() instanceof ExecOperator.Scan) {
        scans.add(node);
      }
    }
    return scans;
  }

  /** Whether the plan reads more than one stream, or one stream more than once. */
  public boolean hasSeveralInputs() {
    return scans().size() > 1;
  }

  /** The state stores of the plan's stateful operators, from the source up. */
  public List<StateSchema> stateSchemas() {
    List<StateSchema> schemas = new ArrayList<>();
    for (ExecNode node : nodes) {
      if (node.state() != null) {
        schemas.add(node.state());
      }
    }
    return schemas;
  }

  /** The plan as indented JSON, the text of a checkpoint's {@code plan} file. */
  public String toJson() {
    try {
      return MAPPER.writeValueAsString(this) + "\n";
    } catch (JsonProcessingException e) {
      // Records of strings, numbers and lists always serialize; only a bug could get here.
      throw new IllegalStateException("Cannot write execution plan as JSON", e);
    }
  }

  /**
   * Reads a plan that {@link #toJson()} wrote.
   *
   * @throws UnreadablePlanException if {@code json} is not a plan, or one of a version other
   *     than {@link #VERSION}
   */
  public static ExecPlan fromJson(String json) {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UnreadablePlanException("it is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (tree == null || !tree.isObject()) {
      throw new UnreadablePlanException("it is not a JSON object", null);
    }
    // The version first: a later format may differ in anything else.
    JsonNode version = tree.get("version");
    if (version == null || !version.isInt()) {
      throw new UnreadablePlanException("it has no whole-number \"version\"", null);
    }
    if (version.intValue() != VERSION) {
      throw new UnreadablePlanException("its version is " + version.intValue()
          + ", but this Freshet reads plans of version " + VERSION + " only", null);
    }
    try {
      return MAPPER.treeToValue(tree, ExecPlan.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new UnreadablePlanException("it is not a version " + VERSION + " plan: "
          + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()),
          e);
    }
  }
}
