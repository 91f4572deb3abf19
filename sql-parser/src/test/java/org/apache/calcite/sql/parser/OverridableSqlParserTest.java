package org.apache.calcite.sql.parser;

/**
 * Calcite's {@link SqlParserTest} with the inherited tests a dialect's parser answers differently
 * made overridable outside Calcite's package, where they are package-private: each is redeclared
 * abstract, so the dialect's test must state, as a test of its own, what its parser does.
 *
 * <p>It lives in Calcite's package only to widen those methods' visibility; it holds no test.
 * The tests Calcite itself switches off (placeholder expectations of {@code "foo"} for syntax
 * Calcite does not parse) are among them, so that a run reports none of them skipped: Freshet's
 * test asserts what its parser does with each.
 */
public abstract class OverridableSqlParserTest extends SqlParserTest {
  /** Calcite: {@code select from emp} fails at {@code from}, echoing one token. */
  @Override protected abstract void testSelectList4();

  /** Calcite: {@code minus} is reserved; queries using it as a name fail, echoing one token. */
  @Override protected abstract void testMinusIsReserved();

  /** Disabled in Calcite: a derived column list without {@code AS}. */
  @Override protected abstract void testDerivedColumnListNoAs();

  /** Disabled in Calcite: the JDBC escape {@code {call foo(?, ?)}}. */
  @Override protected abstract void testEmbeddedCall();

  /** Disabled in Calcite: the JDBC escape {@code {? = call bar (?, ?)}}. */
  @Override protected abstract void testEmbeddedFunction();
}
