package io.skippr.cli.verify;

import io.skippr.sinks.files.JsonText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * A LocalFile sink's JSONL files ({@link JsonText}'s objects, one a line, gzip-compressed when
 * named {@code .gz}) copied into a table of an embedded DuckDB whose columns are texts: each
 * value's text exactly as written (a string unescaped, a number's digits, {@code true} / {@code
 * false}, a JSON column's JSON text as embedded), JSON {@code null} as NULL. DuckDB's own JSON
 * reader is not used: it reads numbers with a fraction through a double and writes nested JSON back
 * in its own spelling, so a {@code numeric(38,10)} or a JSON value would not compare exactly.
 */
final class JsonlTable {
    private final String[] names;
    private final boolean[] json;
    private final Map<String, Integer> index = new HashMap<>();
    private final Set<String> present = new HashSet<>();

    /**
     * @param names the columns kept (other keys are skipped)
     * @param json which of them are JSON columns, kept as the JSON text embedded
     */
    JsonlTable(List<String> names, Set<String> json) {
        this.names = names.toArray(String[]::new);
        this.json = new boolean[this.names.length];
        for (int i = 0; i < this.names.length; i++) {
            index.put(this.names[i], i);
            this.json[i] = json.contains(this.names[i]);
        }
    }

    /**
     * Creates table {@code name} in {@code duckDb} and appends the rows of {@code files}; returns
     * the kept columns some row has.
     */
    Set<String> load(Connection duckDb, String name, List<Path> files, UnaryOperator<String> quote)
            throws SQLException {
        StringBuilder create = new StringBuilder("CREATE OR REPLACE TABLE " + quote.apply(name));
        for (int i = 0; i < names.length; i++) {
            create.append(i == 0 ? " (" : ", ").append(quote.apply(names[i])).append(" VARCHAR");
        }
        try (Statement s = duckDb.createStatement()) {
            s.execute(create.append(")").toString());
        }
        try (DuckDBAppender appender =
                duckDb.unwrap(DuckDBConnection.class).createAppender("main", name)) {
            for (Path file : files) {
                append(appender, file);
            }
        }
        return present;
    }

    private void append(DuckDBAppender appender, Path file) throws SQLException {
        try (InputStream in = open(file);
                Reader reader =
                        new BufferedReader(
                                new InputStreamReader(in, StandardCharsets.UTF_8), 64 * 1024)) {
            StringBuilder line = new StringBuilder();
            char[] buffer = new char[64 * 1024];
            long number = 0;
            for (int n; (n = reader.read(buffer)) >= 0; ) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') { // JsonText escapes \n in strings: a line is a row
                        row(appender, line.toString(), file, ++number);
                        line.setLength(0);
                    } else {
                        line.append(buffer[i]);
                    }
                }
            }
            row(appender, line.toString(), file, ++number);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return file.getFileName().toString().endsWith(".gz")
                ? new GZIPInputStream(in, 64 * 1024)
                : in;
    }

    private void row(DuckDBAppender appender, String line, Path file, long number)
            throws SQLException {
        if (line.isBlank()) {
            return;
        }
        String[] values = new String[names.length];
        new Scanner(line, file + " line " + number).object(values);
        appender.beginRow();
        for (String value : values) {
            if (value == null) {
                appender.appendNull();
            } else {
                appender.append(value);
            }
        }
        appender.endRow();
    }

    /** One line's object, read member by member. */
    private final class Scanner {
        private final String s;
        private final String where;

        Scanner(String s, String where) {
            this.s = s;
            this.where = where;
        }

        void object(String[] values) {
            int i = space(0);
            expect(i, '{');
            i = space(i + 1);
            if (at(i) == '}') {
                end(i + 1);
                return;
            }
            while (true) {
                int keyEnd = stringEnd(i);
                String key = unescape(i, keyEnd);
                i = space(keyEnd);
                expect(i, ':');
                int valueStart = i + 1;
                int tokenStart = space(valueStart);
                int tokenEnd = valueEnd(tokenStart);
                int after = space(tokenEnd);
                Integer column = index.get(key);
                if (column != null) {
                    present.add(key);
                    values[column] = value(column, valueStart, tokenStart, tokenEnd, after);
                }
                if (at(after) == '}') {
                    end(after + 1);
                    return;
                }
                expect(after, ',');
                i = space(after + 1);
            }
        }

        private String value(int column, int valueStart, int tokenStart, int tokenEnd, int after) {
            String token = s.substring(tokenStart, tokenEnd);
            if (token.equals("null")) {
                return null;
            }
            if (json[column]) {
                return s.substring(valueStart, after); // the JSON text as embedded
            }
            return s.charAt(tokenStart) == '"' ? unescape(tokenStart, tokenEnd) : token;
        }

        private int valueEnd(int i) {
            char c = at(i);
            if (c == '"') {
                return stringEnd(i);
            }
            if (c == '{' || c == '[') {
                int depth = 0;
                for (int j = i; j < s.length(); j++) {
                    char d = s.charAt(j);
                    if (d == '"') {
                        j = stringEnd(j) - 1;
                    } else if (d == '{' || d == '[') {
                        depth++;
                    } else if ((d == '}' || d == ']') && --depth == 0) {
                        return j + 1;
                    }
                }
                throw invalid("an unterminated " + c);
            }
            int j = i;
            while (j < s.length() && ",}] \t\r".indexOf(s.charAt(j)) < 0) {
                j++;
            }
            if (j == i) {
                throw invalid("no value at column " + (i + 1));
            }
            return j;
        }

        /** The index after the string starting at {@code i}. */
        private int stringEnd(int i) {
            expect(i, '"');
            for (int j = i + 1; j < s.length(); j++) {
                char c = s.charAt(j);
                if (c == '\\') {
                    j++;
                } else if (c == '"') {
                    return j + 1;
                }
            }
            throw invalid("an unterminated string at column " + (i + 1));
        }

        private String unescape(int start, int end) {
            String body = s.substring(start + 1, end - 1);
            if (body.indexOf('\\') < 0) {
                return body;
            }
            StringBuilder out = new StringBuilder(body.length());
            for (int j = 0; j < body.length(); j++) {
                char c = body.charAt(j);
                if (c != '\\' || j + 1 == body.length()) {
                    out.append(c);
                    continue;
                }
                char e = body.charAt(++j);
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (j + 5 > body.length()) {
                            throw invalid("a short \\u escape");
                        }
                        out.append((char) Integer.parseInt(body.substring(j + 1, j + 5), 16));
                        j += 4;
                    }
                    default -> out.append(e); // \" \\ \/
                }
            }
            return out.toString();
        }

        private int space(int i) {
            while (i < s.length() && " \t\r".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            return i;
        }

        private char at(int i) {
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private void expect(int i, char c) {
            if (at(i) != c) {
                throw invalid("'" + c + "' expected at column " + (i + 1));
            }
        }

        private void end(int i) {
            if (space(i) != s.length()) {
                throw invalid("text after the object at column " + (i + 1));
            }
        }

        private IllegalStateException invalid(String what) {
            return new IllegalStateException(
                    "cannot read " + where + ": not a JSON object as the sink writes one: " + what);
        }
    }
}
