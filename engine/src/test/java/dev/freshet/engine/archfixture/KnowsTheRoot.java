package dev.freshet.engine.archfixture;

/**
 * Uses the engine's root package from a subpackage (this one), which breaks the engine's rule
 * that only the root package knows itself; for {@code ArchitectureTest}. Test sources only.
 */
public final class KnowsTheRoot {
  dev.freshet.engine.Engine engine;
}
