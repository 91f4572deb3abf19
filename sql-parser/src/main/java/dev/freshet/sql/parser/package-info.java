/**
 * Freshet's SQL dialect: Calcite's grammar extended with statements for
 * streams and continuous queries.
 *
 * <p>{@link dev.freshet.sql.FreshetSqlParser} parses text into
 * Calcite {@link org.apache.calcite.sql.SqlNode} trees. Besides everything
 * Calcite's core parser accepts, the dialect has:
 *
 * <pre>
 * CREATE [OR REPLACE] STREAM [IF NOT EXISTS] name
 *   [ ( col type [NOT NULL], ... [, WATERMARK FOR col AS col - INTERVAL '5' SECOND] ) ]
 *   [ WITH ( key = 'value' | key = SECRET name, ... ) ]   -- {@link SqlCreateStream}
 * DROP STREAM [IF EXISTS] name                        -- {@link SqlDropStream}
 * query [EMIT { UPDATE | APPEND | COMPLETE }]         -- {@link SqlEmit}
 * CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(col, ...)]
 *   AS query [EMIT mode]                              -- core SqlCreateMaterializedView
 * DROP MATERIALIZED VIEW [IF EXISTS] name             -- core SqlDropMaterializedView
 * EXPLAIN PLAN FOR query [EMIT mode]                  -- core SqlExplain
 * SHOW { STREAMS | VIEWS | QUERIES }                  -- {@link SqlShow}
 * DESCRIBE [TABLE | STREAM] name                      -- core SqlDescribeTable
 * STOP QUERY { identifier | 'string' | integer }      -- {@link SqlStopQuery}
 * SET 'key' = 'value' | SET a.b = 'value'             -- {@link SqlSetProperty}
 * CREATE SECRET [IF NOT EXISTS] name AS 'value'      -- {@link SqlCreateSecret}
 * DROP SECRET [IF EXISTS] name                        -- {@link SqlDropSecret}
 * SHOW SECRETS                                        -- {@link SqlShowSecrets}
 * RESET 'key'                                         -- {@link SqlSetProperty}
 * </pre>
 *
 * <p>The generated parser is
 * {@link dev.freshet.sql.parser.impl.FreshetSqlParserImpl}; its grammar is
 * {@code src/main/codegen/includes/parserImpls.ftl}.
 */
package dev.freshet.sql.parser;
