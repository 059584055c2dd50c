package io.skippr.sinks.sql;

import io.skippr.core.record.CursorValues;
import io.skippr.core.record.DataType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code _skippr_loads} table in the target schema: one row per stream a commit loaded, per
 * marker row, inserted by {@link MarkerTable#insert} in the transaction that inserts the marker
 * row, so it holds a load exactly when the load's rows landed. Each row says how many rows the
 * stream's part of the commit held, their checksum (the sum of their {@link
 * io.skippr.sinks.writer.StreamUnit#idHash}es, wrapping at 2^64) and the range of their cursor
 * values. Recorded only where the dialect defines the table ({@link SqlDialect#loadsTable}).
 */
public final class LoadsTable {
    public static final String NAME = "_skippr_loads";

    /** The mode column of a {@code --once} run's loads. */
    public static final String ONCE = "once";

    /** The mode column of a continuous run's loads. */
    public static final String CONTINUOUS = "continuous";

    /**
     * One stream's rows in one marker's commit.
     *
     * @param from the lowest cursor value of the rows, as text; null without a cursor
     * @param to the highest
     * @param cursorType the cursor column's type kind, null without a cursor
     */
    public record Load(
            String stream, long rows, long checksum, String from, String to, String cursorType) {

        /** This and {@code other}, rows of the same stream, as one load. */
        public Load plus(Load other) {
            String low = from;
            String high = to;
            if (cursorType != null && cursorType.equals(other.cursorType)) {
                DataType type = DataType.of(DataType.Kind.valueOf(cursorType));
                low = text(CursorValues.min(parse(type, from), parse(type, other.from)));
                high = text(CursorValues.max(parse(type, to), parse(type, other.to)));
            }
            return new Load(
                    stream,
                    rows + other.rows,
                    checksum + other.checksum,
                    low,
                    high,
                    cursorType == null ? other.cursorType : cursorType);
        }

        private static Object parse(DataType type, String text) {
            return text == null ? null : CursorValues.parse(type, text);
        }

        private static String text(Object value) {
            return value == null ? null : CursorValues.toText(value);
        }
    }

    private final SqlSinkSettings settings;
    private final String qualified;

    public LoadsTable(SqlSinkSettings settings) {
        this.settings = settings;
        this.qualified = settings.qualified(NAME);
    }

    /** Creates the table where the dialect records loads and it is missing. */
    void ensure(Connection c) throws SQLException {
        SqlDialect dialect = settings.dialect();
        String ddl = dialect.loadsTable(qualified);
        if (ddl == null || dialect.columns(c, settings.schema(), NAME) != null) {
            return;
        }
        dialect.lockForDdl(c, settings.schema(), NAME);
        if (dialect.columns(c, settings.schema(), NAME) == null) {
            MarkerTable.execute(c, ddl);
        }
    }

    /** Inserts the loads of {@code markers}, in one statement; nothing without any. */
    void insert(Connection c, List<MarkerTable.Marker> markers) throws SQLException {
        SqlDialect dialect = settings.dialect();
        if (dialect.loadsTable(qualified) == null) {
            return;
        }
        List<Object[]> rows = new ArrayList<>();
        for (MarkerTable.Marker m : markers) {
            for (Load load : m.loads()) {
                rows.add(
                        new Object[] {
                            settings.pipeline(),
                            settings.sink(),
                            load.stream(),
                            m.run(),
                            m.checkpoint(),
                            m.subtask(),
                            settings.bounded() ? ONCE : CONTINUOUS,
                            load.rows(),
                            load.checksum(),
                            load.cursorType(),
                            load.from(),
                            load.to()
                        });
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        List<String> columns =
                new ArrayList<>(
                        List.of(
                                "pipeline",
                                "sink",
                                "stream",
                                "run",
                                "checkpoint",
                                "subtask",
                                "mode",
                                "rows",
                                "checksum",
                                "position_type",
                                "position_from",
                                "position_to"));
        String time = dialect.commitTime();
        if (time != null) {
            columns.add("committed_at");
        }
        String values =
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?" + (time == null ? "" : ", " + time) + ")";
        StringBuilder sql =
                new StringBuilder("INSERT INTO ")
                        .append(qualified)
                        .append(" (")
                        .append(dialect.quoteAll(columns))
                        .append(") VALUES");
        for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? " " : ", ").append(values);
        }
        try (PreparedStatement st = c.prepareStatement(sql.toString())) {
            int p = 0;
            for (Object[] row : rows) {
                for (Object value : row) {
                    p++;
                    if (value == null) {
                        st.setNull(p, Types.VARCHAR);
                    } else if (value instanceof Integer i) {
                        st.setInt(p, i);
                    } else if (value instanceof Long l) {
                        st.setLong(p, l);
                    } else {
                        st.setString(p, (String) value);
                    }
                }
            }
            st.executeUpdate();
        }
    }
}
