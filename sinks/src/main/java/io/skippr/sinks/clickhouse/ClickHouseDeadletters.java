package io.skippr.sinks.clickhouse;

import static io.skippr.sinks.clickhouse.ClickHouseSql.literal;
import static io.skippr.sinks.clickhouse.ClickHouseSql.quote;

import io.skippr.core.record.Deadletter;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code skippr_deadletters} table of a ClickHouse deadletter sink, read over HTTP with {@code
 * FINAL}: the sink inserts at least once and the ReplacingMergeTree folds copies by {@code
 * _skippr_id}, so reading without it could show a deadletter twice.
 */
final class ClickHouseDeadletters implements KeptDeadletters.TextRows {
    /** Read as they are; {@code failed_at} is read as microseconds ({@link #read}). */
    private static final List<String> COLUMNS =
            List.of(
                    "_skippr_id",
                    "stream",
                    "stage",
                    "error_class",
                    "error_message",
                    "source_position",
                    "payload");

    private final ClickHouseSettings settings;

    ClickHouseDeadletters(ClickHouseSettings settings) {
        this.settings = settings;
    }

    @Override
    public String describe() {
        return "table "
                + quote(settings.database())
                + "."
                + quote(ClickHouseTables.tableName(Deadletter.STREAM))
                + " of ClickHouse at "
                + settings.address();
    }

    @Override
    public List<Map<String, String>> read(String pipeline) throws IOException {
        ClickHouseHttp http = new ClickHouseHttp(settings);
        String table = ClickHouseTables.tableName(Deadletter.STREAM);
        List<Map<String, String>> out = new ArrayList<>();
        try {
            Map<String, String> columns =
                    new ClickHouseTables(http, settings.database()).columns(table);
            if (columns.isEmpty()) {
                return out; // created with the first deadletter
            }
            StringBuilder select = new StringBuilder("SELECT ");
            for (String column : COLUMNS) {
                select.append(quote(column)).append(", ");
            }
            // DateTime('UTC') holds seconds (this server has no DateTime64)
            select.append("toInt64(toUnixTimestamp(")
                    .append(quote("failed_at"))
                    .append(")) * 1000000, ")
                    .append(
                            columns.containsKey(Deadletter.DATA_RUN)
                                    ? quote(Deadletter.DATA_RUN)
                                    : "1")
                    .append(" FROM ")
                    .append(ClickHouseSql.table(settings.database(), table))
                    .append(" FINAL WHERE ")
                    .append(quote("pipeline"))
                    .append(" = ")
                    .append(literal(pipeline))
                    .append(" FORMAT TabSeparated");
            for (String line : http.query(select.toString()).split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < COLUMNS.size(); i++) {
                    row.put(COLUMNS.get(i), field(fields[i]));
                }
                row.put("failed_at", field(fields[COLUMNS.size()]));
                row.put(Deadletter.DATA_RUN, field(fields[COLUMNS.size() + 1]));
                out.add(row);
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while reading " + describe());
        } catch (ClickHouseException e) {
            throw new IOException("Could not read " + describe() + ": " + e.getMessage(), e);
        }
    }

    private static String field(String text) {
        return "\\N".equals(text) ? null : ClickHouseSql.unescapeField(text);
    }
}
