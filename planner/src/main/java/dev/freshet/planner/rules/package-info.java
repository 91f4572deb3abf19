/**
 * Freshet's planner rules: each turns a streaming shape of Calcite's logical plan into Freshet's
 * streaming relational operators. Each rule's {@code Config} is an interface whose implementation
 * Immutables generates ({@code ImmutableXxxRule.Config}), as Calcite generates its own rules'
 * configurations: {@code StreamTopNRule.Config.DEFAULT.withDescription("...").toRule()}.
 */
@Value.Style(
    // Only the JDK in the generated code, although Guava is on the classpath through Calcite.
    jdkOnly = true,
    // No annotations found on the classpath (JSR 305, Error Prone) in the generated code.
    allowedClasspathAnnotations = {Override.class},
    // Generated classes appear only as the DEFAULT of each Config.
    visibility = Value.Style.ImplementationVisibility.PACKAGE)
package dev.freshet.planner.rules;

import org.immutables.value.Value;
