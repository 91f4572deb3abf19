package dev.freshet.testkit.archfixture.lower;

import dev.freshet.testkit.archfixture.upper.Upper;

/** Uses {@link Upper} back: the other half of a package cycle, for {@code ArchitectureTest}s. */
public final class Lower {
  Upper upper;
}
