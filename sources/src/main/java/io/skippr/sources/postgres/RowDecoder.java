package io.skippr.sources.postgres;

import io.skippr.core.record.CursorValues;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.Undecodable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns rows of a {@link SplitQuery} ({@link RowFields}) into records with deterministic positions:
 * {@code table|key=value[,...]} (key values as PostgreSQL text) or {@code
 * table|#oid(page,item)@filenode} (the row's address, {@link RowOrder}) without a key ({@code
 * table|#n}, the row's number, for a view or foreign table without one), then {@code |cursor=value}
 * (as {@link CursorValues} text, empty for NULL) when a cursor column is set. In values, {@code \},
 * {@code ,} and {@code |} are escaped with a backslash, so distinct rows never share a position.
 */
final class RowDecoder {
    private final String stream;
    private final long schemaVersion;
    private final List<ColumnInfo> columns;
    private final DataType.Kind[] kinds;
    private final List<String> keyColumns;
    private final int cursorIndex;

    /**
     * Per key column, the index of its value when the value's Java text is PostgreSQL's text too
     * (integers, {@link RowOrder#keyTextIsValue}), whose text is not selected; -1 otherwise.
     */
    private final int[] keyFromValue;

    /** Per key column, the field of its text; -1 when it is read from its value. */
    private final int[] keyTextField;

    private final boolean byAddress;

    /** Per column, whether it is sent in binary ({@link BinaryColumns}); else as its text. */
    private final boolean[] binary;

    private final boolean[] jsonb;

    /** The first resume key field. */
    private final int keyField;

    /** The field of an undecodable row's text ({@link BinaryColumns#undecodableText}), or -1. */
    private final int undecodableField;

    private final int fieldCount;

    RowDecoder(TableInfo table, RowOrder order) {
        this.byAddress = order.byAddress();
        this.stream = table.stream();
        this.schemaVersion = table.streamSchema().version();
        this.columns = table.columns();
        this.kinds = new DataType.Kind[columns.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = columns.get(i).type().kind();
        }
        this.keyColumns = table.primaryKey();
        this.cursorIndex = table.cursorColumn() == null ? -1 : table.indexOf(table.cursorColumn());
        this.keyFromValue = new int[keyColumns.size()];
        this.keyTextField = new int[keyColumns.size()];
        int textField = kinds.length;
        for (int k = 0; k < keyFromValue.length; k++) {
            int index = table.indexOf(keyColumns.get(k));
            boolean fromValue = RowOrder.keyTextIsValue(columns.get(index));
            keyFromValue[k] = fromValue ? index : -1;
            keyTextField[k] = fromValue ? -1 : textField++;
        }
        this.binary = new boolean[kinds.length];
        this.jsonb = new boolean[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            binary[i] = BinaryColumns.binary(columns.get(i));
            jsonb[i] = BinaryColumns.jsonb(columns.get(i));
        }
        this.keyField = kinds.length;
        int keyFields = order.select(SplitQuery.ALIAS).size();
        boolean undecodable = BinaryColumns.undecodableText(table, SplitQuery.ALIAS) != null;
        this.undecodableField = undecodable ? keyField + keyFields : -1;
        this.fieldCount = keyField + keyFields + (undecodable ? 1 : 0);
    }

    /** The fields of each row: the columns, the resume key, an undecodable row's text. */
    int fieldCount() {
        return fieldCount;
    }

    /** The current row of {@code rs}, the {@code ordinal}-th of its split. */
    ReadRecord decode(RowFields rs, long ordinal) throws SQLException {
        Object[] values = new Object[kinds.length];
        String problem = null;
        for (int i = 0; i < kinds.length; i++) {
            try {
                values[i] = binary[i] ? rs.value(i, kinds[i], jsonb[i]) : rs.text(i);
            } catch (PgTypes.Unrepresentable e) {
                if (problem == null) {
                    problem = "column " + Sql.show(columns.get(i).name()) + ": " + e.getMessage();
                }
            }
        }
        List<String> key = null;
        StringBuilder position = new StringBuilder(stream).append('|');
        if (keyColumns.isEmpty() && !byAddress) {
            position.append('#').append(ordinal);
        } else if (keyColumns.isEmpty()) {
            key = new ArrayList<>(3);
            for (int k = 1; k <= 3; k++) {
                key.add(rs.text(keyField + k - 1));
            }
            position.append(RowOrder.addressPosition(key));
        } else {
            key = new ArrayList<>(keyColumns.size());
            for (int k = 0; k < keyColumns.size(); k++) {
                int from = keyFromValue[k];
                String text = from >= 0 ? values[from].toString() : rs.text(keyTextField[k]);
                key.add(text);
                if (k > 0) {
                    position.append(',');
                }
                position.append(keyColumns.get(k)).append('=').append(escape(text));
            }
        }
        if (cursorIndex >= 0) {
            Object cursor = values[cursorIndex];
            String text;
            if (cursor != null) {
                text = CursorValues.toText(cursor);
            } else if (rs.isNull(cursorIndex)) {
                text = "";
            } else { // a value without a representation: the row's text holds it
                text = undecodableText(rs).get(cursorIndex);
            }
            position.append('|')
                    .append(columns.get(cursorIndex).name())
                    .append('=')
                    .append(escape(text));
        }
        SourceRecord record;
        if (problem == null) {
            record = Row.insert(stream, schemaVersion, values, position.toString());
        } else {
            record =
                    new Undecodable(
                            stream,
                            payload(rs),
                            "PostgreSQL value has no Skippr representation: " + problem,
                            position.toString());
        }
        return new ReadRecord(record, key, ordinal);
    }

    /**
     * A row position of {@code table} read back: its resume key ({@link RowOrder}), or, for a table
     * without a key read by an earlier version, a one-element list of the row's number.
     */
    static List<String> keyOf(TableInfo table, String position) {
        String prefix = table.stream() + "|";
        if (!position.startsWith(prefix)) {
            throw new IllegalArgumentException(
                    "position " + position + " is not one of stream " + table.stream());
        }
        int at = prefix.length();
        List<String> keys = table.primaryKey();
        if (keys.isEmpty()) {
            int end = position.indexOf('|', at);
            String text = position.substring(at, end < 0 ? position.length() : end);
            List<String> address = RowOrder.addressOf(text);
            return address != null ? address : List.of(text.substring(1));
        }
        List<String> values = new ArrayList<>(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            at += keys.get(k).length() + 1; // "name="
            StringBuilder value = new StringBuilder();
            while (at < position.length()) {
                char ch = position.charAt(at);
                if (ch == '\\' && at + 1 < position.length()) {
                    value.append(position.charAt(at + 1));
                    at += 2;
                } else if (ch == ',' || ch == '|') {
                    break;
                } else {
                    value.append(ch);
                    at++;
                }
            }
            values.add(value.toString());
            at++; // the ',' between key values
        }
        return values;
    }

    /** {@code value} with backslash, comma and pipe escaped by a backslash. */
    static String escape(String value) {
        if (value.indexOf('\\') < 0 && value.indexOf(',') < 0 && value.indexOf('|') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 4);
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '\\' || ch == ',' || ch == '|') {
                out.append('\\');
            }
            out.append(ch);
        }
        return out.toString();
    }

    /** The text of each column of an undecodable row. */
    private List<String> undecodableText(RowFields rs) throws SQLException {
        List<String> texts = undecodableField < 0 ? null : rs.texts(undecodableField);
        if (texts == null || texts.size() != columns.size()) {
            throw new SQLException("the query sent no text of an undecodable row");
        }
        return texts;
    }

    /** The row as a JSON object of PostgreSQL text values, for a deadletter. */
    private String payload(RowFields rs) throws SQLException {
        List<String> texts = undecodableText(rs);
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            appendJsonString(json, columns.get(i).name());
            json.append(':');
            String text = texts.get(i);
            if (text == null) {
                json.append("null");
            } else {
                appendJsonString(json, text);
            }
        }
        return json.append('}').toString();
    }

    static void appendJsonString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        out.append('"');
    }
}
