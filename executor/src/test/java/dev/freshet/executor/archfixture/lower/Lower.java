package dev.freshet.executor.archfixture.lower;

import dev.freshet.executor.archfixture.upper.Upper;

/** Uses {@link Upper} back: the other half of a package cycle, for {@code ArchitectureTest}. */
public final class Lower {
  Upper upper;
}
