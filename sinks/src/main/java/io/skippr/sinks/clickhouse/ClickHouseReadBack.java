package io.skippr.sinks.clickhouse;

import io.skippr.config.model.ResolvedSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ClickHouse data sink's tables, read back ({@code skipprd verify}): the sink's table names and
 * quoting, and queries over its HTTP interface answered as rows of texts. Reads only; the login is
 * the sink's.
 */
public final class ClickHouseReadBack {
    private static final String NULL = "\\N";

    private final ClickHouseSettings settings;
    private final ClickHouseHttp http;

    private ClickHouseReadBack(ClickHouseSettings settings) {
        this.settings = settings;
        this.http = new ClickHouseHttp(settings);
    }

    /** The database of a data sink with {@code settings}; connects to nothing yet. */
    public static ClickHouseReadBack of(ResolvedSettings settings) {
        return new ClickHouseReadBack(ClickHouseSettings.of(settings));
    }

    /** The quoted, qualified table the sink loads {@code stream} into. */
    public String table(String stream) {
        return ClickHouseSql.table(settings.database(), ClickHouseTables.tableName(stream));
    }

    /** The columns of the stream's table and their types; null when it does not exist. */
    public Map<String, String> columns(String stream) throws InterruptedException {
        Map<String, String> columns =
                new ClickHouseTables(http, settings.database())
                        .columns(ClickHouseTables.tableName(stream));
        return columns.isEmpty() ? null : new LinkedHashMap<>(columns);
    }

    public static String quote(String name) {
        return ClickHouseSql.quote(name);
    }

    public static String literal(String text) {
        return ClickHouseSql.literal(text);
    }

    /** Runs {@code select} (without a FORMAT) and returns its rows, NULL as null. */
    public List<String[]> query(String select) throws InterruptedException {
        String answer = http.query(select + " FORMAT TabSeparated");
        List<String[]> rows = new ArrayList<>();
        String[] lines = answer.split("\n", -1);
        // every row ends with a line break: the text after the last one is no row
        for (int r = 0; r < lines.length - 1; r++) {
            String line = lines[r];
            String[] fields = line.split("\t", -1);
            for (int i = 0; i < fields.length; i++) {
                fields[i] = fields[i].equals(NULL) ? null : ClickHouseSql.unescapeField(fields[i]);
            }
            rows.add(fields);
        }
        return rows;
    }
}
