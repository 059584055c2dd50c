package io.skippr.sinks.synapse.fake;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The T-SQL the Synapse sink sends, translated to the backing PostgreSQL's SQL, token by token:
 * types (NVARCHAR → varchar, NVARCHAR(MAX) → text, BIT → boolean, FLOAT → double precision,
 * DATETIME2 → timestamp, DATETIMEOFFSET → timestamptz, UNIQUEIDENTIFIER → uuid, VARBINARY(n) →
 * bytea), N'…' strings, {@code @Pn} parameters, T-SQL's NULL ordering (first ascending, last
 * descending), {@code INFORMATION_SCHEMA.COLUMNS} (a view with T-SQL's type names), {@code
 * HAS_PERMS_BY_NAME} (always 1: the backing user owns what it loads), a CREATE TABLE's {@code WITH
 * (DISTRIBUTION = …, HEAP | CLUSTERED COLUMNSTORE INDEX)}, and {@code IF OBJECT_ID(…) IS NOT NULL
 * DROP TABLE}. Names longer than PostgreSQL's 63 bytes become stand-ins. What Synapse would refuse
 * is refused with its error (PostgreSQL's {@code IF [NOT] EXISTS}, {@code NULLS FIRST|LAST}, {@code
 * LIMIT}, {@code ::} casts, {@code TRUE}/{@code FALSE}, {@code ADD COLUMN}, PostgreSQL type names,
 * enforced keys), and statements the sink does not send are refused as not implemented.
 */
final class Tsql {
    private Tsql() {}

    /** A statement translated: the PostgreSQL text, or the parsed COPY INTO. */
    record Translated(String sql, String verb, boolean ddl, boolean counts, CopyInto.Spec copy) {}

    /** The backing names of Synapse names: long ones become stand-ins. */
    interface Names extends UnaryOperator<String> {}

    private static final Set<String> PG_TYPES =
            Set.of("BOOLEAN", "BYTEA", "JSONB", "DOUBLE", "TIMESTAMPTZ", "SERIAL", "BIGSERIAL");

    private static final Set<String> REFUSED_WORDS =
            Set.of("LIMIT", "NULLS", "ILIKE", "RETURNING", "TRUE", "FALSE", "OFFSET");

    enum Kind {
        WORD,
        QUOTED,
        STRING,
        NUMBER,
        SYMBOL,
        SPACE
    }

    /** A token: {@code text} as the backing database reads it (identifiers unquoted). */
    record Token(Kind kind, String text) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean sym(String s) {
            return kind == Kind.SYMBOL && text.equals(s);
        }

        String upper() {
            return text.toUpperCase(Locale.ROOT);
        }
    }

    static List<Token> tokens(String sql) throws SynapseError {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            int j = i + 1;
            if (Character.isWhitespace(c)) {
                while (j < n && Character.isWhitespace(sql.charAt(j))) {
                    j++;
                }
                out.add(new Token(Kind.SPACE, " "));
            } else if (c == '-' && j < n && sql.charAt(j) == '-') {
                throw SynapseError.unsupported("comments");
            } else if ((c == 'N' || c == 'n') && j < n && sql.charAt(j) == '\'') {
                int[] end = new int[1];
                out.add(new Token(Kind.STRING, string(sql, j, end)));
                j = end[0];
            } else if (c == '\'') {
                int[] end = new int[1];
                out.add(new Token(Kind.STRING, string(sql, i, end)));
                j = end[0];
            } else if (c == '"' || c == '[') {
                char close = c == '"' ? '"' : ']';
                StringBuilder name = new StringBuilder();
                while (true) {
                    if (j >= n) {
                        throw new SynapseError(
                                105,
                                "Unclosed quotation mark after the character string '"
                                        + name
                                        + "'.");
                    }
                    char d = sql.charAt(j++);
                    if (d == close) {
                        if (j < n && sql.charAt(j) == close) {
                            name.append(close);
                            j++;
                        } else {
                            break;
                        }
                    } else {
                        name.append(d);
                    }
                }
                out.add(new Token(Kind.QUOTED, name.toString()));
            } else if (Character.isLetter(c) || c == '_' || c == '@' || c == '#') {
                while (j < n
                        && (Character.isLetterOrDigit(sql.charAt(j))
                                || sql.charAt(j) == '_'
                                || sql.charAt(j) == '@'
                                || sql.charAt(j) == '$')) {
                    j++;
                }
                out.add(new Token(Kind.WORD, sql.substring(i, j)));
            } else if (Character.isDigit(c)) {
                while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                    j++;
                }
                out.add(new Token(Kind.NUMBER, sql.substring(i, j)));
            } else {
                String two = j < n ? sql.substring(i, j + 1) : "";
                if (Set.of(">=", "<=", "<>", "!=", "::").contains(two)) {
                    j++;
                    out.add(new Token(Kind.SYMBOL, two));
                } else {
                    out.add(new Token(Kind.SYMBOL, String.valueOf(c)));
                }
            }
            i = j;
        }
        return out;
    }

    /** A string literal's value, from its opening quote at {@code at}; end[0] is past it. */
    private static String string(String sql, int at, int[] end) throws SynapseError {
        StringBuilder s = new StringBuilder();
        int j = at + 1;
        while (true) {
            if (j >= sql.length()) {
                throw new SynapseError(
                        105, "Unclosed quotation mark after the character string '" + s + "'.");
            }
            char d = sql.charAt(j++);
            if (d == '\'') {
                if (j < sql.length() && sql.charAt(j) == '\'') {
                    s.append('\'');
                    j++;
                } else {
                    break;
                }
            } else {
                s.append(d);
            }
        }
        end[0] = j;
        return s.toString();
    }

    /** The {@code @Pn} parameters, in the order they appear. */
    static List<String> parameters(String sql) throws SynapseError {
        List<String> out = new ArrayList<>();
        for (Token t : tokens(sql)) {
            if (t.kind() == Kind.WORD && t.text().startsWith("@") && !t.text().startsWith("@@")) {
                out.add(t.text());
            }
        }
        return out;
    }

    /** Tokens without spaces, for parsing. */
    static List<Token> solid(List<Token> tokens) {
        return tokens.stream().filter(t -> t.kind() != Kind.SPACE).toList();
    }

    static Translated translate(String tsql, Names names) throws SynapseError {
        List<Token> all = tokens(tsql.strip().replaceAll(";\\s*$", ""));
        List<Token> s = solid(all);
        if (s.isEmpty()) {
            throw SynapseError.unsupported("an empty statement");
        }
        String first = s.get(0).upper();
        if (first.equals("COPY")) {
            return new Translated(null, "COPY", false, true, CopyInto.Spec.parse(s, names));
        }
        if (first.equals("IF")) {
            return s.size() > 8 && s.get(7).is("IS") && s.get(8).is("NULL")
                    ? createIfMissing(tsql, s, names)
                    : dropIfExists(s, names);
        }
        String verb;
        boolean ddl;
        switch (first) {
            case "SELECT" -> {
                verb = "SELECT";
                ddl = false;
            }
            case "INSERT", "DELETE", "UPDATE" -> {
                verb = first;
                ddl = false;
            }
            case "CREATE", "ALTER", "DROP" -> {
                verb = first + (s.size() > 1 ? " " + s.get(1).upper() : "");
                ddl = true;
            }
            default -> throw SynapseError.unsupported("the statement " + first);
        }
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < all.size(); i++) {
            Token t = all.get(i);
            Token next = next(all, i);
            switch (t.kind()) {
                case SPACE -> out.append(' ');
                case STRING -> out.append('\'').append(t.text().replace("'", "''")).append('\'');
                case NUMBER -> out.append(t.text());
                case QUOTED -> out.append(quote(names.apply(t.text())));
                case SYMBOL -> {
                    if (t.sym("::")) {
                        throw SynapseError.syntax(":");
                    }
                    if (t.sym("(")) {
                        depth++;
                    } else if (t.sym(")")) {
                        depth--;
                    }
                    out.append(t.text());
                }
                case WORD -> {
                    String w = t.upper();
                    if (REFUSED_WORDS.contains(w)) {
                        throw w.equals("TRUE") || w.equals("FALSE")
                                ? new SynapseError(207, "Invalid column name '" + t.text() + "'.")
                                : SynapseError.syntax(t.text());
                    }
                    if (PG_TYPES.contains(w)) {
                        throw new SynapseError(
                                2715,
                                "Column, parameter, or variable #1: Cannot find data type "
                                        + t.text()
                                        + ".");
                    }
                    if (w.equals("IF")) {
                        throw SynapseError.keyword("IF");
                    }
                    if (w.equals("COLUMN") && ddl) {
                        throw SynapseError.keyword("COLUMN");
                    }
                    if (w.equals("PRIMARY") || w.equals("UNIQUE")) {
                        throw SynapseError.unsupported(
                                "enforced keys (Synapse takes only NOT ENFORCED ones, which the"
                                        + " sink does not declare)");
                    }
                    if (w.startsWith("@@")) {
                        throw SynapseError.unsupported(t.text());
                    }
                    if (w.startsWith("@")) {
                        out.append('?');
                    } else if (w.equals("WITH") && depth == 0 && verb.equals("CREATE TABLE")) {
                        tableOptions(solid(all.subList(i + 1, all.size())));
                        i = all.size();
                    } else if (w.equals("INFORMATION_SCHEMA")
                            && next(all, i + 1) != null
                            && next(all, i + 1).is("COLUMNS")) {
                        out.append("\"_fake_synapse\".columns");
                        i += 2;
                    } else if (w.equals("HAS_PERMS_BY_NAME")) {
                        int d = 0;
                        do {
                            Token u = all.get(++i);
                            d += u.sym("(") ? 1 : u.sym(")") ? -1 : 0;
                        } while (d > 0);
                        out.append('1');
                    } else if (w.equals("NVARCHAR") || w.equals("NCHAR")) {
                        if (next != null && next.sym("(") && max(all, i)) {
                            out.append("text");
                            i = closing(all, i);
                        } else {
                            out.append(w.equals("NVARCHAR") ? "varchar" : "char");
                        }
                    } else if (w.equals("VARBINARY")) {
                        out.append("bytea");
                        if (next != null && next.sym("(")) {
                            i = closing(all, i);
                        }
                    } else {
                        out.append(
                                switch (w) {
                                    case "BIT" -> "boolean";
                                    case "FLOAT" -> "double precision";
                                    case "DATETIME2" -> "timestamp";
                                    case "DATETIMEOFFSET" -> "timestamptz";
                                    case "UNIQUEIDENTIFIER" -> "uuid";
                                    case "TINYINT" -> "smallint";
                                    case "DESC" -> "DESC NULLS LAST";
                                    case "ASC" -> "ASC NULLS FIRST";
                                    default -> t.text();
                                });
                    }
                }
            }
        }
        return new Translated(
                out.toString(),
                verb,
                ddl,
                Set.of("INSERT", "DELETE", "UPDATE").contains(verb),
                null);
    }

    private static Token next(List<Token> all, int i) {
        for (int k = i + 1; k < all.size(); k++) {
            if (all.get(k).kind() != Kind.SPACE) {
                return all.get(k);
            }
        }
        return null;
    }

    /** Whether the type at {@code i} is followed by {@code (MAX)}. */
    private static boolean max(List<Token> all, int i) {
        int k = i + 1;
        while (k < all.size() && !all.get(k).sym("(")) {
            k++;
        }
        Token inside = next(all, k);
        return inside != null && inside.is("MAX");
    }

    /** The index of the {@code )} that closes the parenthesis after {@code i}. */
    private static int closing(List<Token> all, int i) {
        int k = i + 1;
        while (!all.get(k).sym(")")) {
            k++;
        }
        return k;
    }

    /** A CREATE TABLE's WITH options: DISTRIBUTION and the index, as Synapse takes them. */
    private static void tableOptions(List<Token> s) throws SynapseError {
        if (s.isEmpty() || !s.get(0).sym("(") || !s.get(s.size() - 1).sym(")")) {
            throw SynapseError.syntax("WITH");
        }
        String text =
                String.join(" ", s.subList(1, s.size() - 1).stream().map(Token::upper).toList())
                        .replace(" ( ", "(")
                        .replace(" )", ")");
        for (String option : text.split(" , ")) {
            String o = option.trim();
            if (!(o.matches("DISTRIBUTION = (ROUND_ROBIN|REPLICATE|HASH\\(.+\\))")
                    || o.equals("HEAP")
                    || o.equals("CLUSTERED COLUMNSTORE INDEX"))) {
                throw new SynapseError(
                        103010,
                        "Parse error: the table option '" + o + "' is not one Synapse takes.");
            }
        }
    }

    /** {@code IF OBJECT_ID(N'…', N'U') IS NOT NULL DROP TABLE …}, Synapse's drop-if-exists. */
    private static Translated dropIfExists(List<Token> s, Names names) throws SynapseError {
        if (s.size() < 13
                || !s.get(1).is("OBJECT_ID")
                || !s.get(2).sym("(")
                || s.get(3).kind() != Kind.STRING
                || !s.get(4).sym(",")
                || s.get(5).kind() != Kind.STRING
                || !s.get(5).text().equalsIgnoreCase("U")
                || !s.get(6).sym(")")
                || !s.get(7).is("IS")
                || !s.get(8).is("NOT")
                || !s.get(9).is("NULL")
                || !s.get(10).is("DROP")
                || !s.get(11).is("TABLE")) {
            throw SynapseError.unsupported(
                    "IF statements other than IF OBJECT_ID(…, N'U') IS NOT NULL DROP TABLE …");
        }
        List<Token> named = solid(tokens(s.get(3).text()));
        StringBuilder table = new StringBuilder();
        for (Token t : s.subList(12, s.size())) {
            if (t.kind() == Kind.QUOTED) {
                table.append(quote(names.apply(t.text())));
            } else if (t.sym(".")) {
                table.append('.');
            } else {
                throw SynapseError.syntax(t.text());
            }
        }
        StringBuilder object = new StringBuilder();
        for (Token t : named) {
            object.append(t.kind() == Kind.QUOTED ? quote(names.apply(t.text())) : t.text());
        }
        if (!object.toString().equals(table.toString())) {
            throw SynapseError.unsupported("OBJECT_ID of another table than the one dropped");
        }
        return new Translated("DROP TABLE IF EXISTS " + table, "DROP TABLE", true, false, null);
    }

    /** {@code IF OBJECT_ID(N'…', N'U') IS NULL CREATE TABLE …}: create if missing. */
    private static Translated createIfMissing(String tsql, List<Token> s, Names names)
            throws SynapseError {
        if (s.size() < 12
                || !s.get(1).is("OBJECT_ID")
                || !s.get(2).sym("(")
                || s.get(3).kind() != Kind.STRING
                || !s.get(4).sym(",")
                || !s.get(5).text().equalsIgnoreCase("U")
                || !s.get(6).sym(")")
                || !s.get(9).is("CREATE")
                || !s.get(10).is("TABLE")) {
            throw SynapseError.unsupported(
                    "IF statements other than IF OBJECT_ID(…, N'U') IS NULL CREATE TABLE …");
        }
        int at = tsql.toUpperCase(Locale.ROOT).indexOf("CREATE TABLE");
        Translated create = translate(tsql.substring(at), names);
        StringBuilder object = new StringBuilder();
        for (Token t : solid(tokens(s.get(3).text()))) {
            object.append(t.kind() == Kind.QUOTED ? quote(names.apply(t.text())) : t.text());
        }
        String sql = create.sql();
        String rest = sql.substring("CREATE TABLE ".length());
        if (!rest.startsWith(object.toString())) {
            throw SynapseError.unsupported("OBJECT_ID of another table than the one created");
        }
        return new Translated(
                "CREATE TABLE IF NOT EXISTS " + rest, create.verb(), true, false, null);
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static boolean tooLong(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length > 63;
    }

    /** A PostgreSQL error as SQL Server's error of the same failure. */
    static SynapseError error(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = message.indexOf('\n');
        String first = nl < 0 ? message : message.substring(0, nl);
        return switch (state) {
            case "42P01" -> new SynapseError(208, "Invalid object name: " + first);
            case "42703" -> new SynapseError(207, "Invalid column name: " + first);
            case "42P07", "42P06" ->
                    new SynapseError(2714, "There is already an object named that: " + first);
            case "3F000" ->
                    new SynapseError(2760, "The specified schema name does not exist: " + first);
            case "22001" ->
                    new SynapseError(2628, "String or binary data would be truncated: " + first);
            case "22003" -> new SynapseError(8115, "Arithmetic overflow error: " + first);
            case "22P02", "22007", "22008" -> new SynapseError(245, "Conversion failed: " + first);
            case "23502" ->
                    new SynapseError(515, "Cannot insert the value NULL into column: " + first);
            case "40001", "40P01" ->
                    new SynapseError(
                            1205,
                            51,
                            13,
                            "Transaction was deadlocked and has been chosen as the deadlock victim: "
                                    + first);
            case "42601" -> new SynapseError(102, "Incorrect syntax: " + first);
            case "42501" -> new SynapseError(229, "The permission was denied: " + first);
            default ->
                    new SynapseError(
                            SynapseError.UNSUPPORTED, "backing PostgreSQL " + state + ": " + first);
        };
    }
}
