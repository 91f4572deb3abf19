package dev.freshet.planner.archfixture.lower;

import dev.freshet.planner.archfixture.upper.Upper;

/** Uses {@link Upper} back: the other half of a package cycle, for {@code ArchitectureTest}. */
public final class Lower {
  Upper upper;
}
