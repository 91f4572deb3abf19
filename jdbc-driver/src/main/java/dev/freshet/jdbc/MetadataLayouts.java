package dev.freshet.jdbc;

/**
 * The columns of each {@link java.sql.DatabaseMetaData} result, as its Javadoc lists them: names,
 * order, types ({@code short} codes are SMALLINT) and which may be null.
 *
 * <pre>{@code
 * MetadataLayouts.TABLES.columns().get(2).columnName;   // TABLE_NAME
 * }</pre>
 */
final class MetadataLayouts {
  private MetadataLayouts() {
  }

  private static final boolean NULL = true;
  private static final boolean NOT_NULL = false;

  /** {@code getTables}. */
  static final ResultLayout TABLES = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("TABLE_TYPE", NOT_NULL).text("REMARKS", NULL, 4096).text("TYPE_CAT", NULL)
      .text("TYPE_SCHEM", NULL).text("TYPE_NAME", NULL).text("SELF_REFERENCING_COL_NAME", NULL)
      .text("REF_GENERATION", NULL)
      .build();

  /** {@code getColumns}. */
  static final ResultLayout COLUMNS = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("COLUMN_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL).text("TYPE_NAME", NOT_NULL)
      .integer("COLUMN_SIZE", NULL).integer("BUFFER_LENGTH", NULL)
      .integer("DECIMAL_DIGITS", NULL).integer("NUM_PREC_RADIX", NULL)
      .integer("NULLABLE", NOT_NULL).text("REMARKS", NULL).text("COLUMN_DEF", NULL)
      .integer("SQL_DATA_TYPE", NULL).integer("SQL_DATETIME_SUB", NULL)
      .integer("CHAR_OCTET_LENGTH", NULL).integer("ORDINAL_POSITION", NOT_NULL)
      .text("IS_NULLABLE", NOT_NULL).text("SCOPE_CATALOG", NULL).text("SCOPE_SCHEMA", NULL)
      .text("SCOPE_TABLE", NULL).smallint("SOURCE_DATA_TYPE", NULL)
      .text("IS_AUTOINCREMENT", NOT_NULL).text("IS_GENERATEDCOLUMN", NOT_NULL)
      .build();

  /** {@code getSchemas}. */
  static final ResultLayout SCHEMAS = ResultLayout.builder()
      .text("TABLE_SCHEM", NOT_NULL).text("TABLE_CATALOG", NULL)
      .build();

  /** {@code getCatalogs}. */
  static final ResultLayout CATALOGS = ResultLayout.builder()
      .text("TABLE_CAT", NOT_NULL)
      .build();

  /** {@code getTableTypes}. */
  static final ResultLayout TABLE_TYPES = ResultLayout.builder()
      .text("TABLE_TYPE", NOT_NULL)
      .build();

  /** {@code getPrimaryKeys}. */
  static final ResultLayout PRIMARY_KEYS = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("COLUMN_NAME", NOT_NULL).smallint("KEY_SEQ", NOT_NULL).text("PK_NAME", NULL)
      .build();

  /** {@code getTypeInfo}. */
  static final ResultLayout TYPE_INFO = ResultLayout.builder()
      .text("TYPE_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL).integer("PRECISION", NULL)
      .text("LITERAL_PREFIX", NULL).text("LITERAL_SUFFIX", NULL).text("CREATE_PARAMS", NULL)
      .smallint("NULLABLE", NOT_NULL).bool("CASE_SENSITIVE", NOT_NULL)
      .smallint("SEARCHABLE", NOT_NULL).bool("UNSIGNED_ATTRIBUTE", NOT_NULL)
      .bool("FIXED_PREC_SCALE", NOT_NULL).bool("AUTO_INCREMENT", NOT_NULL)
      .text("LOCAL_TYPE_NAME", NULL).smallint("MINIMUM_SCALE", NULL)
      .smallint("MAXIMUM_SCALE", NULL).integer("SQL_DATA_TYPE", NULL)
      .integer("SQL_DATETIME_SUB", NULL).integer("NUM_PREC_RADIX", NULL)
      .build();

  /** {@code getProcedures}; Freshet has none. */
  static final ResultLayout PROCEDURES = ResultLayout.builder()
      .text("PROCEDURE_CAT", NULL).text("PROCEDURE_SCHEM", NULL)
      .text("PROCEDURE_NAME", NOT_NULL).text("RESERVED1", NULL).text("RESERVED2", NULL)
      .text("RESERVED3", NULL).text("REMARKS", NULL).smallint("PROCEDURE_TYPE", NOT_NULL)
      .text("SPECIFIC_NAME", NOT_NULL)
      .build();

  /** {@code getProcedureColumns}; Freshet has no procedures. */
  static final ResultLayout PROCEDURE_COLUMNS = ResultLayout.builder()
      .text("PROCEDURE_CAT", NULL).text("PROCEDURE_SCHEM", NULL)
      .text("PROCEDURE_NAME", NOT_NULL).text("COLUMN_NAME", NOT_NULL)
      .smallint("COLUMN_TYPE", NOT_NULL).integer("DATA_TYPE", NOT_NULL)
      .text("TYPE_NAME", NOT_NULL).integer("PRECISION", NULL).integer("LENGTH", NULL)
      .smallint("SCALE", NULL).smallint("RADIX", NULL).smallint("NULLABLE", NOT_NULL)
      .text("REMARKS", NULL).text("COLUMN_DEF", NULL).integer("SQL_DATA_TYPE", NULL)
      .integer("SQL_DATETIME_SUB", NULL).integer("CHAR_OCTET_LENGTH", NULL)
      .integer("ORDINAL_POSITION", NOT_NULL).text("IS_NULLABLE", NOT_NULL)
      .text("SPECIFIC_NAME", NOT_NULL)
      .build();

  /** {@code getFunctions}; user-defined functions do not exist yet. */
  static final ResultLayout FUNCTIONS = ResultLayout.builder()
      .text("FUNCTION_CAT", NULL).text("FUNCTION_SCHEM", NULL).text("FUNCTION_NAME", NOT_NULL)
      .text("REMARKS", NULL).smallint("FUNCTION_TYPE", NOT_NULL)
      .text("SPECIFIC_NAME", NOT_NULL)
      .build();

  /** {@code getFunctionColumns}. */
  static final ResultLayout FUNCTION_COLUMNS = ResultLayout.builder()
      .text("FUNCTION_CAT", NULL).text("FUNCTION_SCHEM", NULL).text("FUNCTION_NAME", NOT_NULL)
      .text("COLUMN_NAME", NOT_NULL).smallint("COLUMN_TYPE", NOT_NULL)
      .integer("DATA_TYPE", NOT_NULL).text("TYPE_NAME", NOT_NULL).integer("PRECISION", NULL)
      .integer("LENGTH", NULL).smallint("SCALE", NULL).smallint("RADIX", NULL)
      .smallint("NULLABLE", NOT_NULL).text("REMARKS", NULL)
      .integer("CHAR_OCTET_LENGTH", NULL).integer("ORDINAL_POSITION", NOT_NULL)
      .text("IS_NULLABLE", NOT_NULL).text("SPECIFIC_NAME", NOT_NULL)
      .build();

  /** {@code getColumnPrivileges}; Freshet has no privileges yet. */
  static final ResultLayout COLUMN_PRIVILEGES = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("COLUMN_NAME", NOT_NULL).text("GRANTOR", NULL).text("GRANTEE", NOT_NULL)
      .text("PRIVILEGE", NOT_NULL).text("IS_GRANTABLE", NULL)
      .build();

  /** {@code getTablePrivileges}. */
  static final ResultLayout TABLE_PRIVILEGES = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("GRANTOR", NULL).text("GRANTEE", NOT_NULL).text("PRIVILEGE", NOT_NULL)
      .text("IS_GRANTABLE", NULL)
      .build();

  /** {@code getBestRowIdentifier} and {@code getVersionColumns}, which share their columns. */
  static final ResultLayout ROW_IDENTIFIER = ResultLayout.builder()
      .smallint("SCOPE", NULL).text("COLUMN_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL)
      .text("TYPE_NAME", NOT_NULL).integer("COLUMN_SIZE", NULL)
      .integer("BUFFER_LENGTH", NULL).smallint("DECIMAL_DIGITS", NULL)
      .smallint("PSEUDO_COLUMN", NOT_NULL)
      .build();

  /** {@code getImportedKeys}, {@code getExportedKeys} and {@code getCrossReference}. */
  static final ResultLayout KEYS = ResultLayout.builder()
      .text("PKTABLE_CAT", NULL).text("PKTABLE_SCHEM", NULL).text("PKTABLE_NAME", NOT_NULL)
      .text("PKCOLUMN_NAME", NOT_NULL).text("FKTABLE_CAT", NULL).text("FKTABLE_SCHEM", NULL)
      .text("FKTABLE_NAME", NOT_NULL).text("FKCOLUMN_NAME", NOT_NULL)
      .smallint("KEY_SEQ", NOT_NULL).smallint("UPDATE_RULE", NOT_NULL)
      .smallint("DELETE_RULE", NOT_NULL).text("FK_NAME", NULL).text("PK_NAME", NULL)
      .smallint("DEFERRABILITY", NOT_NULL)
      .build();

  /** {@code getIndexInfo}; Freshet has no indexes. */
  static final ResultLayout INDEX_INFO = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .bool("NON_UNIQUE", NOT_NULL).text("INDEX_QUALIFIER", NULL).text("INDEX_NAME", NULL)
      .smallint("TYPE", NOT_NULL).smallint("ORDINAL_POSITION", NOT_NULL)
      .text("COLUMN_NAME", NULL).text("ASC_OR_DESC", NULL).bigint("CARDINALITY", NOT_NULL)
      .bigint("PAGES", NOT_NULL).text("FILTER_CONDITION", NULL)
      .build();

  /** {@code getUDTs}; Freshet has no user-defined types. */
  static final ResultLayout UDTS = ResultLayout.builder()
      .text("TYPE_CAT", NULL).text("TYPE_SCHEM", NULL).text("TYPE_NAME", NOT_NULL)
      .text("CLASS_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL).text("REMARKS", NULL)
      .smallint("BASE_TYPE", NULL)
      .build();

  /** {@code getSuperTypes}. */
  static final ResultLayout SUPER_TYPES = ResultLayout.builder()
      .text("TYPE_CAT", NULL).text("TYPE_SCHEM", NULL).text("TYPE_NAME", NOT_NULL)
      .text("SUPERTYPE_CAT", NULL).text("SUPERTYPE_SCHEM", NULL)
      .text("SUPERTYPE_NAME", NOT_NULL)
      .build();

  /** {@code getSuperTables}. */
  static final ResultLayout SUPER_TABLES = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("SUPERTABLE_NAME", NOT_NULL)
      .build();

  /** {@code getAttributes}. */
  static final ResultLayout ATTRIBUTES = ResultLayout.builder()
      .text("TYPE_CAT", NULL).text("TYPE_SCHEM", NULL).text("TYPE_NAME", NOT_NULL)
      .text("ATTR_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL)
      .text("ATTR_TYPE_NAME", NOT_NULL).integer("ATTR_SIZE", NULL)
      .integer("DECIMAL_DIGITS", NULL).integer("NUM_PREC_RADIX", NULL)
      .integer("NULLABLE", NOT_NULL).text("REMARKS", NULL).text("ATTR_DEF", NULL)
      .integer("SQL_DATA_TYPE", NULL).integer("SQL_DATETIME_SUB", NULL)
      .integer("CHAR_OCTET_LENGTH", NULL).integer("ORDINAL_POSITION", NOT_NULL)
      .text("IS_NULLABLE", NOT_NULL).text("SCOPE_CATALOG", NULL).text("SCOPE_SCHEMA", NULL)
      .text("SCOPE_TABLE", NULL).smallint("SOURCE_DATA_TYPE", NULL)
      .build();

  /** {@code getClientInfoProperties}; Freshet keeps no client info. */
  static final ResultLayout CLIENT_INFO_PROPERTIES = ResultLayout.builder()
      .text("NAME", NOT_NULL).integer("MAX_LEN", NOT_NULL).text("DEFAULT_VALUE", NULL)
      .text("DESCRIPTION", NULL)
      .build();

  /** {@code getPseudoColumns}; Freshet has no pseudo columns. */
  static final ResultLayout PSEUDO_COLUMNS = ResultLayout.builder()
      .text("TABLE_CAT", NULL).text("TABLE_SCHEM", NULL).text("TABLE_NAME", NOT_NULL)
      .text("COLUMN_NAME", NOT_NULL).integer("DATA_TYPE", NOT_NULL)
      .integer("COLUMN_SIZE", NULL).integer("DECIMAL_DIGITS", NULL)
      .integer("NUM_PREC_RADIX", NULL).text("COLUMN_USAGE", NOT_NULL).text("REMARKS", NULL)
      .integer("CHAR_OCTET_LENGTH", NULL).text("IS_NULLABLE", NOT_NULL)
      .build();
}
