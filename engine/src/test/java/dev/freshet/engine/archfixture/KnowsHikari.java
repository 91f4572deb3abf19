package dev.freshet.engine.archfixture;

/**
 * A class that uses HikariCP, the JDBC connector's pool, for {@code ArchitectureTest}: the engine
 * holds no connector's client. Test sources only.
 */
public final class KnowsHikari {
  com.zaxxer.hikari.HikariConfig pool;
}
