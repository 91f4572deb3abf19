package dev.freshet.spark.archfixture.lower;

import dev.freshet.spark.archfixture.upper.Upper;

/** Uses {@link Upper} back: the other half of a package cycle, for {@code ArchitectureTest}. */
public final class Lower {
  Upper upper;
}
