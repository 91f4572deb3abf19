package dev.freshet.planner.archfixture.upper;

import dev.freshet.planner.archfixture.lower.Lower;

/** Uses {@link Lower}, which uses it back: a package cycle, for {@code ArchitectureTest}. */
public final class Upper {
  Lower lower;
}
