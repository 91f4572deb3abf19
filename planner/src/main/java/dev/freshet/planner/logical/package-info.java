/**
 * A continuous query's logical plan as another engine runs it, in Freshet's terms: plan nodes
 * ({@link dev.freshet.planner.logical.LogicalPlan}), scalar expressions
 * ({@link dev.freshet.planner.logical.Expression}) and types
 * ({@link dev.freshet.planner.logical.LogicalType}, over {@code dev.freshet.common.types.SqlType}),
 * with Spark's names where Spark has one. Nothing here is Calcite's: a runner such as
 * {@code engine-spark} translates this plan without knowing how Freshet plans
 * ({@code dev.freshet.planner.logical.conversion} makes it of Calcite's plan).
 *
 * <pre>{@code
 * LogicalQuery q = LogicalPlanConverter.convert(planner.planWindowed(sql, EmitMode.UPDATE, n));
 * System.out.print(q.plan().explain());
 * }</pre>
 *
 * <p>What the plan cannot express is still a node or an expression
 * ({@link dev.freshet.planner.logical.LogicalPlan.Unsupported},
 * {@link dev.freshet.planner.logical.Expression.Unsupported}) that says what the query wrote,
 * so that a runner refuses it with its own message where it meets it.
 */
package dev.freshet.planner.logical;
