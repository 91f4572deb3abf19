<#--
  Freshet's additions to Calcite's grammar. config.fmpp wires each top-level
  production below into a hook of Calcite's Parser.jj:
    statementParserMethods       SqlShow, SqlStopQuery, SqlDescribeStream,
                                 FreshetExplain, SqlShowSecrets,
                                 FreshetQueryOrEmit
    createStatementParserMethods SqlCreateStream, SqlCreateMaterializedView,
                                 SqlCreateSink, SqlCreateTable, SqlCreateSecret
    dropStatementParserMethods   SqlDropStream, SqlDropMaterializedView,
                                 SqlDropSink, SqlDropTable, SqlDropSecret
    setOptionParserMethod        FreshetSetOption
-->

/** Parses an optional "IF NOT EXISTS"; "IF" alone may still start a name. */
boolean IfNotExistsOpt() :
{
}
{
    LOOKAHEAD(2) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

/** Parses an optional "IF EXISTS"; "IF" alone may still start a name. */
boolean IfExistsOpt() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/**
 * Converts a string literal, possibly continued over several fragments, to a
 * plain character string literal; rejects binary strings.
 */
JAVACODE SqlCharStringLiteral toCharString(SqlNode node) {
    final SqlLiteral literal = SqlLiteral.unchain(node);
    if (!(literal instanceof SqlCharStringLiteral)) {
        throw SqlUtil.newContextException(node.getParserPosition(),
            FreshetParserResource.RESOURCE.characterStringExpected(
                node.toString()));
    }
    return SqlLiteral.createCharString(literal.getValueAs(String.class),
        node.getParserPosition());
}

/** Returns whether a literal is a character string, maybe continued. */
JAVACODE boolean isCharString(SqlNode node) {
    final SqlNode first = node.getKind() == SqlKind.LITERAL_CHAIN
        ? ((SqlCall) node).operand(0) : node;
    return first instanceof SqlCharStringLiteral;
}

/** Parses a character string literal. */
SqlCharStringLiteral CharString() :
{
    final SqlNode literal;
}
{
    literal = StringLiteral() { return toCharString(literal); }
}

/**
 * Parses a simple identifier and appends its spelling as written to a
 * buffer: an unquoted identifier keeps its case, a quoted one loses its
 * quotes.
 */
SqlIdentifier NameAsWritten(StringBuilder text) :
{
    final SqlIdentifier id;
}
{
    id = SimpleIdentifier() {
        text.append(id.getParserPosition().isQuoted() ? id.getSimple() : token.image);
        return id;
    }
}

/**
 * Parses a dotted name such as "state.partitions"; returns it as an
 * identifier and appends its spelling as written to a buffer.
 */
SqlIdentifier PropertyName(StringBuilder text) :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
    SqlIdentifier part;
    final Span s;
}
{
    part = NameAsWritten(text) {
        s = Span.of(part);
        names.add(part.getSimple());
        positions.add(part.getParserPosition());
    }
    (
        <DOT> { text.append('.'); }
        part = NameAsWritten(text) {
            names.add(part.getSimple());
            positions.add(part.getParserPosition());
        }
    )*
    {
        return new SqlIdentifier(names, null, s.end(this), positions);
    }
}

/** Parses a property key: a character string or a dotted name. */
SqlCharStringLiteral PropertyKey() :
{
    final StringBuilder text = new StringBuilder();
    final SqlIdentifier name;
    final SqlCharStringLiteral key;
}
{
    (
        key = CharString()
    |
        name = PropertyName(text) {
            key = SqlLiteral.createCharString(text.toString(),
                name.getParserPosition());
        }
    )
    { return key; }
}

/**
 * Parses "( key = 'value', ... )" into a flat list of key and value literals;
 * rejects a key given twice.
 */
SqlNodeList PropertyList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    Property(list)
    (
        <COMMA> Property(list)
    )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/**
 * Parses "key = 'value'" or "key = SECRET name" and appends key and value to
 * a list.
 */
void Property(List<SqlNode> list) :
{
    final SqlCharStringLiteral key;
    final SqlNode value;
}
{
    key = PropertyKey() <EQ> value = PropertyValue() {
        final String k = key.getValueAs(String.class);
        for (int i = 0; i < list.size(); i += 2) {
            if (k.equals(((SqlLiteral) list.get(i)).getValueAs(String.class))) {
                throw SqlUtil.newContextException(key.getParserPosition(),
                    FreshetParserResource.RESOURCE.duplicateOption(k));
            }
        }
        list.add(key);
        list.add(value);
    }
}

/** Parses "WATERMARK FOR column AS expression". */
SqlWatermark Watermark() :
{
    final Span s;
    final SqlIdentifier column;
    final SqlNode delay;
}
{
    <WATERMARK> { s = span(); } <FOR> column = SimpleIdentifier()
    <AS> delay = Expression(ExprContext.ACCEPT_NON_QUERY) {
        return new SqlWatermark(s.end(delay), column, delay);
    }
}

/**
 * Parses one element of a CREATE STREAM column list: a column declaration,
 * or the watermark, of which there may be one. "WATERMARK" alone is a column
 * name; "WATERMARK FOR" starts the watermark.
 */
void StreamElement(SqlIdentifier stream, List<SqlNode> columns,
    List<SqlWatermark> watermarks) :
{
    final SqlWatermark watermark;
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    final boolean nullable;
}
{
    LOOKAHEAD(2)
    watermark = Watermark() {
        if (!watermarks.isEmpty()) {
            throw SqlUtil.newContextException(watermark.getParserPosition(),
                FreshetParserResource.RESOURCE.duplicateWatermark(
                    stream.toString()));
        }
        watermarks.add(watermark);
    }
|
    id = SimpleIdentifier() type = DataType()
    nullable = NullableOptDefaultTrue() {
        columns.add(
            SqlDdlNodes.column(Span.of(id).end(this), id,
                type.withNullable(nullable), null,
                nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE));
    }
}

/**
 * Parses the rest of "CREATE [OR REPLACE] STREAM [IF NOT EXISTS] name
 * [( element, ... )] [WITH ( key = 'value', ... )]".
 */
SqlCreate SqlCreateStream(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlWatermark> watermarks = new ArrayList<SqlWatermark>();
    Span columnSpan = Span.of();
    SqlNodeList properties = SqlNodeList.EMPTY;
}
{
    <STREAM> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [
        <LPAREN> { columnSpan = span(); }
        StreamElement(id, columns, watermarks)
        (
            <COMMA> StreamElement(id, columns, watermarks)
        )*
        <RPAREN> { columnSpan.add(this); }
    ]
    [
        <WITH> properties = PropertyList()
    ]
    {
        return new SqlCreateStream(s.end(this), replace, ifNotExists, id,
            new SqlNodeList(columns, columnSpan.pos()),
            watermarks.isEmpty() ? null : watermarks.get(0), properties);
    }
}

/** Parses the rest of "DROP STREAM [IF EXISTS] name". */
SqlDrop SqlDropStream(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <STREAM> ifExists = IfExistsOpt() id = CompoundIdentifier() {
        return new SqlDropStream(s.end(this), ifExists, id);
    }
}

/**
 * Parses one element of a CREATE TABLE column list: a column declaration,
 * maybe followed by PRIMARY KEY, or a table-level PRIMARY KEY (a, b).
 */
void TableElement(List<SqlNode> columns, List<SqlNodeList> keys) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    boolean nullable;
    final SqlNodeList keyColumns;
    final Span s;
}
{
    LOOKAHEAD(2)
    <PRIMARY> { s = span(); } <KEY> keyColumns = ParenthesizedSimpleIdentifierList() {
        keys.add(new SqlNodeList(keyColumns.getList(), s.end(this)));
    }
|
    id = SimpleIdentifier() type = DataType()
    nullable = NullableOptDefaultTrue()
    [
        <PRIMARY> <KEY> {
            keys.add(new SqlNodeList(Collections.singletonList((SqlNode) id),
                Span.of(id).end(this)));
            nullable = false;
        }
    ]
    {
        columns.add(
            SqlDdlNodes.column(Span.of(id).end(this), id,
                type.withNullable(nullable), null,
                nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE));
    }
}

/**
 * Parses the rest of "CREATE TABLE [IF NOT EXISTS] name ( element, ... )
 * [WITH ( key = 'value', ... )]".
 */
SqlCreate SqlCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlNodeList> keys = new ArrayList<SqlNodeList>();
    final Span columnSpan;
    SqlNodeList properties = SqlNodeList.EMPTY;
}
{
    <TABLE> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    <LPAREN> { columnSpan = span(); }
    TableElement(columns, keys)
    (
        <COMMA> TableElement(columns, keys)
    )*
    <RPAREN> { columnSpan.add(this); }
    [
        <WITH> properties = PropertyList()
    ]
    {
        if (replace) {
            throw SqlUtil.newContextException(s.pos(),
                RESOURCE.illegalQueryExpression());
        }
        return new SqlCreateTable(s.end(this), ifNotExists, id,
            new SqlNodeList(columns, columnSpan.pos()),
            new SqlNodeList(keys, columnSpan.pos()), properties);
    }
}

/** Parses the rest of "DROP TABLE [IF EXISTS] name". */
SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <TABLE> ifExists = IfExistsOpt() id = CompoundIdentifier() {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, id);
    }
}

/**
 * Parses the rest of "CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS]
 * name [(column, ...)] [WITH ( key = 'value', ... )] AS query [EMIT mode]".
 * OR REPLACE is parsed, for the engine to refuse with a way out.
 */
SqlCreate SqlCreateMaterializedView(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList columnList = null;
    SqlNodeList properties = SqlNodeList.EMPTY;
    final SqlNode query;
}
{
    <MATERIALIZED> <VIEW> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [ columnList = ParenthesizedSimpleIdentifierList() ]
    [
        <WITH> properties = PropertyList()
    ]
    <AS> query = FreshetQueryOrEmit() {
        return new SqlCreateFreshetMaterializedView(s.end(this), replace,
            ifNotExists, id, columnList, query, properties);
    }
}

/** Parses the rest of "DROP MATERIALIZED VIEW [IF EXISTS] name". */
SqlDrop SqlDropMaterializedView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <MATERIALIZED> <VIEW> ifExists = IfExistsOpt() id = CompoundIdentifier() {
        return SqlDdlNodes.dropMaterializedView(s.end(this), ifExists, id);
    }
}

/**
 * Parses the rest of "CREATE SINK [IF NOT EXISTS] name FROM view WITH (...)"
 * or "CREATE SINK [IF NOT EXISTS] name AS query [EMIT mode] WITH (...)".
 */
SqlCreate SqlCreateSink(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlIdentifier view = null;
    SqlNode query = null;
    final SqlNodeList properties;
}
{
    <SINK> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    (
        <FROM> view = CompoundIdentifier()
    |
        <AS> query = FreshetQueryOrEmit()
    )
    <WITH> properties = PropertyList() {
        if (replace) {
            throw SqlUtil.newContextException(s.pos(),
                RESOURCE.illegalQueryExpression());
        }
        return new SqlCreateSink(s.end(this), ifNotExists, id, view, query,
            properties);
    }
}

/** Parses the rest of "DROP SINK [IF EXISTS] name". */
SqlDrop SqlDropSink(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <SINK> ifExists = IfExistsOpt() id = CompoundIdentifier() {
        return new SqlDropSink(s.end(this), ifExists, id);
    }
}

/** Parses the mode after EMIT. */
EmitMode EmitModeKeyword() :
{
}
{
    <UPDATE> { return EmitMode.UPDATE; }
|
    <APPEND> { return EmitMode.APPEND; }
|
    <COMPLETE> { return EmitMode.COMPLETE; }
}

/**
 * Parses a query with an optional trailing "EMIT mode". Without EMIT, returns
 * the query as Calcite's OrderedQueryOrExpr does.
 */
SqlNode FreshetQueryOrEmit() :
{
    final SqlNode query;
    final EmitMode mode;
}
{
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    (
        <EMIT> mode = EmitModeKeyword() {
            return new SqlEmit(Span.of(query).end(this), query, mode);
        }
    |
        { return query; }
    )
}

/** Parses a query, with optional EMIT, or a DML statement. */
SqlNode FreshetQueryOrDml() :
{
    final SqlNode stmt;
}
{
    (
        stmt = FreshetQueryOrEmit()
    |
        stmt = SqlInsert()
    |
        stmt = SqlDelete()
    |
        stmt = SqlUpdate()
    |
        stmt = SqlMerge()
    )
    { return stmt; }
}

/**
 * Parses "EXPLAIN PLAN [detail] [depth] [AS format] FOR statement" as
 * Calcite does, except that the query may end with EMIT and the statement may
 * be a CREATE MATERIALIZED VIEW.
 */
SqlNode FreshetExplain() :
{
    final Span s;
    SqlExplainLevel detailLevel = SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    final SqlExplain.Depth depth;
    SqlExplainFormat format = SqlExplainFormat.TEXT;
    SqlNode stmt;
    final Span c;
}
{
    <EXPLAIN> { s = span(); } <PLAN>
    [ detailLevel = ExplainDetailLevel() ]
    depth = ExplainDepth()
    [
        <AS>
        (
            <XML> { format = SqlExplainFormat.XML; }
        |
            <JSON> { format = SqlExplainFormat.JSON; }
        |
            <DOT_FORMAT> { format = SqlExplainFormat.DOT; }
        )
    ]
    <FOR>
    (
        stmt = FreshetQueryOrDml()
    |
        // The plan of a materialized view's query, as it would run in the background.
        <CREATE> { c = span(); } stmt = SqlCreateMaterializedView(c, false)
    )
    {
        return new SqlExplain(s.end(this), stmt,
            detailLevel.symbol(SqlParserPos.ZERO),
            depth.symbol(SqlParserPos.ZERO),
            format.symbol(SqlParserPos.ZERO),
            nDynamicParams);
    }
}

/**
 * Parses "SHOW STREAMS", "SHOW VIEWS", "SHOW QUERIES", "SHOW SINKS" or
 * "SHOW GRANTS [ON name]".
 */
SqlNode SqlShow() :
{
    final Span s;
    SqlShow.Kind kind = null;
    SqlIdentifier object = null;
}
{
    <SHOW> { s = span(); }
    (
        <STREAMS> { kind = SqlShow.Kind.STREAMS; }
    |
        <VIEWS> { kind = SqlShow.Kind.VIEWS; }
    |
        <QUERIES> { kind = SqlShow.Kind.QUERIES; }
    |
        <SINKS> { kind = SqlShow.Kind.SINKS; }
    |
        <GRANTS> [ <ON> object = CompoundIdentifier() ] {
            return new SqlShowGrants(s.end(this), object);
        }
    )
    {
        return new SqlShow(s.end(this), kind);
    }
}

/** Adds one privilege of a GRANT or REVOKE to {@code privileges}. */
void GrantPrivilege(List<String> privileges) :
{
}
{
    <SELECT> { privileges.add("SELECT"); }
|
    <INSERT> { privileges.add("INSERT"); }
|
    <ALL> [ <PRIVILEGES> ] { privileges.add("ALL"); }
}

/**
 * Parses "GRANT privilege, ... ON [STREAM | TABLE | MATERIALIZED VIEW] name
 * TO user | PUBLIC", "GRANT CREATE CONNECTOR TO user | PUBLIC", and REVOKE
 * the same with FROM.
 */
SqlNode SqlGrantOrRevoke() :
{
    final Span s;
    final boolean grant;
    final List<String> privileges = new ArrayList<String>();
    SqlGrant.ObjectKind kind = SqlGrant.ObjectKind.ANY;
    SqlIdentifier object = null;
    SqlIdentifier grantee = null;
}
{
    (
        <GRANT> { grant = true; }
    |
        <REVOKE> { grant = false; }
    )
    { s = span(); }
    (
        <CREATE> <CONNECTOR> { privileges.add(SqlGrant.CREATE_CONNECTOR); }
    |
        GrantPrivilege(privileges) ( <COMMA> GrantPrivilege(privileges) )*
        <ON>
        [
            // Two tokens: an object may be called MATERIALIZED.
            LOOKAHEAD(2)
            (
                <STREAM> { kind = SqlGrant.ObjectKind.STREAM; }
            |
                <TABLE> { kind = SqlGrant.ObjectKind.TABLE; }
            |
                <MATERIALIZED> <VIEW> {
                    kind = SqlGrant.ObjectKind.MATERIALIZED_VIEW;
                }
            )
        ]
        object = CompoundIdentifier()
    )
    (
        <TO> {
            if (!grant) {
                throw SqlUtil.newContextException(getPos(),
                    FreshetParserResource.RESOURCE.grantDirection("REVOKE", "FROM"));
            }
        }
    |
        <FROM> {
            if (grant) {
                throw SqlUtil.newContextException(getPos(),
                    FreshetParserResource.RESOURCE.grantDirection("GRANT", "TO"));
            }
        }
    )
    (
        // PUBLIC is non-reserved: unquoted it is everyone, "PUBLIC" a user.
        LOOKAHEAD(1) <PUBLIC>
    |
        grantee = SimpleIdentifier()
    )
    {
        return new SqlGrant(s.end(this), grant, privileges, kind, object, grantee);
    }
}

/** Parses "STOP QUERY id"; id is an identifier, a string or an integer. */
SqlStopQuery SqlStopQuery() :
{
    final Span s;
    final StringBuilder text = new StringBuilder();
    final SqlIdentifier name;
    final SqlLiteral id;
}
{
    <STOP> { s = span(); } <QUERY>
    (
        name = NameAsWritten(text) {
            id = SqlLiteral.createCharString(text.toString(),
                name.getParserPosition());
        }
    |
        id = CharString()
    |
        <UNSIGNED_INTEGER_LITERAL> {
            id = SqlLiteral.createExactNumeric(token.image, getPos());
        }
    )
    {
        return new SqlStopQuery(s.end(this), id);
    }
}

/** Parses "DESCRIBE STREAM name", the same as "DESCRIBE TABLE name". */
SqlNode SqlDescribeStream() :
{
    final Span s;
    final SqlIdentifier id;
}
{
    <DESCRIBE> { s = span(); } <STREAM> id = CompoundIdentifier() {
        return new SqlDescribeTable(s.end(id), id, null);
    }
}

/**
 * Parses "SET key = value", "RESET key" and, after "ALTER scope", the same.
 * A string key, or a string value, makes a SqlSetProperty; every other form
 * makes Calcite's SqlSetOption, as Calcite's own SqlSetOption production
 * does.
 */
SqlAlter FreshetSetOption(Span s, String scope) :
{
    final StringBuilder text = new StringBuilder();
    SqlIdentifier name;
    final SqlCharStringLiteral key;
    final SqlCharStringLiteral string;
    final SqlNode value;
}
{
    (
        <SET> { s.add(this); }
        (
            key = CharString() <EQ> string = CharString() {
                return new SqlSetProperty(s.end(string), scope, key, string);
            }
        |
            name = PropertyName(text) <EQ>
            (
                value = Literal() {
                    if (isCharString(value)) {
                        return new SqlSetProperty(s.end(value), scope,
                            SqlLiteral.createCharString(text.toString(),
                                name.getParserPosition()),
                            toCharString(value));
                    }
                }
            |
                value = SimpleIdentifier()
            |
                <ON> {
                    value = new SqlIdentifier(
                        token.image.toUpperCase(Locale.ROOT), getPos());
                }
            )
            {
                return new SqlSetOption(s.end(value), scope, (SqlNode) name,
                    value);
            }
        )
    |
        <RESET> { s.add(this); }
        (
            key = CharString() {
                return new SqlSetProperty(s.end(key), scope, key, null);
            }
        |
            name = PropertyName(text)
        |
            <ALL> {
                name = new SqlIdentifier(
                    token.image.toUpperCase(Locale.ROOT), getPos());
            }
        )
        {
            return new SqlSetOption(s.end(name), scope, (SqlNode) name, null);
        }
    )
}

/**
 * Parses an option's value: a character string, or "SECRET name", the value
 * of a secret, whose position spans both words.
 */
SqlNode PropertyValue() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlNode value;
}
{
    <SECRET> { s = span(); } name = SimpleIdentifier() {
        return new SqlSecretReference(s.end(name), name);
    }
|
    value = CharString() { return value; }
}

/** Parses the rest of "CREATE SECRET [IF NOT EXISTS] name AS 'value'". */
SqlCreate SqlCreateSecret(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final SqlCharStringLiteral value;
}
{
    <SECRET> ifNotExists = IfNotExistsOpt() id = SimpleIdentifier()
    <AS> value = CharString() {
        if (replace) {
            throw SqlUtil.newContextException(s.pos(),
                FreshetParserResource.RESOURCE.secretCannotBeReplaced(
                    id.getSimple()));
        }
        return new SqlCreateSecret(s.end(this), ifNotExists, id, value);
    }
}

/** Parses the rest of "DROP SECRET [IF EXISTS] name". */
SqlDrop SqlDropSecret(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <SECRET> ifExists = IfExistsOpt() id = SimpleIdentifier() {
        return new SqlDropSecret(s.end(this), ifExists, id);
    }
}

/** Parses "SHOW SECRETS". */
SqlShowSecrets SqlShowSecrets() :
{
    final Span s;
}
{
    <SHOW> { s = span(); } <SECRETS> {
        return new SqlShowSecrets(s.end(this));
    }
}
