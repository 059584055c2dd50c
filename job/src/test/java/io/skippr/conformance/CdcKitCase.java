package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

/**
 * The kit's change data capture case (issue 18): a {@code replication_method: cdc} source in the
 * default write mode, three {@code --once} runs with inserts, updates (one leaving a TOASTed value
 * unchanged, under {@code REPLICA IDENTITY FULL}), deletes, a column added, a table without a key
 * and a table added to the pipeline between runs. A destination that merges must equal the source
 * by md5 per key; any other exactly-once one holds every change once, whose newest per key equals
 * the source row or is the key's delete. A destination that commits no source position (the
 * at-least-once and deduplicating ones) starts each run over with a new snapshot: it holds every
 * source row as it is after the last run.
 */
final class CdcKitCase {
    static final String ITEMS = "cdc_items";
    static final String LOG = "cdc_log";
    static final String MORE = "cdc_more";

    private static final String LSN = "_skippr_lsn";
    private static final String OP = "_skippr_op";

    private final SinkConformanceKit kit;

    /** Per table and key, the operations the source's changes made, in commit order. */
    private final Map<String, Map<Long, List<String>>> changes = new HashMap<>();

    CdcKitCase(SinkConformanceKit kit) {
        this.kit = kit;
    }

    void run() throws Exception {
        SourceTable source = kit.source;
        source.exec(
                "CREATE TABLE "
                        + q(ITEMS)
                        + " (id bigint PRIMARY KEY, name text, qty int, big text)",
                "ALTER TABLE " + q(ITEMS) + " REPLICA IDENTITY FULL",
                // 3,840 characters, stored out of line (TOASTed) uncompressed, and no longer than
                // every destination's strings take (Synapse: 4,000)
                "ALTER TABLE " + q(ITEMS) + " ALTER COLUMN big SET STORAGE EXTERNAL",
                "INSERT INTO "
                        + q(ITEMS)
                        + " SELECT i, 'item ' || i, i, (SELECT string_agg(md5(i || '/' || g), '')"
                        + " FROM generate_series(1, 120) g) FROM generate_series(1, 100) i",
                "CREATE TABLE " + q(LOG) + " (id bigint, line text)",
                "ALTER TABLE " + q(LOG) + " REPLICA IDENTITY FULL",
                "INSERT INTO " + q(LOG) + " SELECT i, 'line ' || i FROM generate_series(1, 10) i",
                "CREATE TABLE " + q(MORE) + " (id bigint PRIMARY KEY, name text)",
                "INSERT INTO " + q(MORE) + " SELECT i, 'more ' || i FROM generate_series(1, 20) i");
        record(ITEMS, "snapshot", 1, 100);
        record(LOG, "snapshot", 1, 10);
        kit.pipeline.once(run(List.of(ITEMS, LOG)));

        source.exec(
                "INSERT INTO "
                        + q(ITEMS)
                        + " SELECT i, 'item ' || i, i, 'small' FROM generate_series(101, 120) i",
                "UPDATE " + q(ITEMS) + " SET qty = qty + 1000 WHERE id <= 30", // big unchanged
                "UPDATE " + q(ITEMS) + " SET big = 'rewritten ' || id WHERE id BETWEEN 31 AND 35",
                "DELETE FROM " + q(ITEMS) + " WHERE id BETWEEN 41 AND 50",
                "ALTER TABLE " + q(ITEMS) + " ADD COLUMN note text",
                "UPDATE " + q(ITEMS) + " SET note = 'note ' || id WHERE id BETWEEN 60 AND 70",
                "INSERT INTO "
                        + q(ITEMS)
                        + " SELECT i, 'item ' || i, i, 'small', 'new ' || i FROM"
                        + " generate_series(121, 125) i",
                "INSERT INTO " + q(LOG) + " SELECT i, 'line ' || i FROM generate_series(11, 15) i",
                "DELETE FROM " + q(LOG) + " WHERE id IN (3, 4)");
        record(ITEMS, "insert", 101, 120);
        record(ITEMS, "update", 1, 35);
        record(ITEMS, "delete", 41, 50);
        record(ITEMS, "update", 60, 70);
        record(ITEMS, "insert", 121, 125);
        record(LOG, "insert", 11, 15);
        record(LOG, "delete", 3, 4);
        record(MORE, "snapshot", 1, 20);
        List<String> all = List.of(ITEMS, LOG, MORE);
        kit.pipeline.once(run(all)); // cdc_more is new: snapshotted, then streamed

        source.exec(
                "UPDATE " + q(MORE) + " SET name = 'changed ' || id WHERE id <= 5",
                "DELETE FROM " + q(MORE) + " WHERE id = 6",
                "INSERT INTO " + q(MORE) + " VALUES (21, 'more 21')",
                "UPDATE " + q(ITEMS) + " SET name = NULL WHERE id = 1");
        record(MORE, "update", 1, 5);
        record(MORE, "delete", 6, 6);
        record(MORE, "insert", 21, 21);
        record(ITEMS, "update", 1, 1);
        kit.pipeline.once(run(all));

        SinkFixture fixture = kit.fixture;
        if (fixture.guarantee() != Guarantee.EXACTLY_ONCE) {
            // commits no position: each run starts over with a new slot and snapshot
            for (String table : all) {
                assertHoldsTheSourcesRows(table);
            }
            return;
        }
        for (String table : List.of(ITEMS, MORE)) {
            if (fixture.mergesByDefault()) {
                kit.assertHolds(table, source.expected(table, 1, 1000), false);
            } else {
                assertChangesOnce(table);
            }
        }
        assertChangesOnce(LOG); // no key: appended in every destination
    }

    /** A table name quoted for the kit's SQL. */
    private static String q(String table) {
        return "\"" + table + "\"";
    }

    private KitPipeline.Run run(List<String> tables) {
        return kit.pipeline.sourceYaml(kit.source.cdcYaml(tables)).mode(null);
    }

    private void record(String table, String op, long from, long to) {
        Map<Long, List<String>> keys = changes.computeIfAbsent(table, t -> new TreeMap<>());
        LongStream.rangeClosed(from, to)
                .forEach(k -> keys.computeIfAbsent(k, x -> new ArrayList<>()).add(op));
    }

    /**
     * Every change of {@code table} once, in commit order per key ({@code _skippr_lsn}), and the
     * newest of a key equal to the source's row, or its delete; an at-least-once destination may
     * hold a change twice, with the same {@code _skippr_id}.
     */
    private void assertChangesOnce(String table) throws Exception {
        SinkFixture fixture = kit.fixture;
        Map<Object, Map<String, Object>> byId = new LinkedHashMap<>();
        List<Map<String, Object>> rows = fixture.rows(kit.dir, table);
        rows.forEach(row -> byId.put(row.get("_skippr_id"), row));
        if (fixture.guarantee() != Guarantee.AT_LEAST_ONCE) {
            assertThat(rows).as("%s: no change twice", table).hasSize(byId.size());
        }
        Map<Long, List<Map<String, Object>>> byKey = new TreeMap<>();
        for (Map<String, Object> row : byId.values()) {
            byKey.computeIfAbsent(((Number) row.get("id")).longValue(), k -> new ArrayList<>())
                    .add(row);
        }
        Map<Long, List<String>> held = new TreeMap<>();
        Map<Long, Map<String, Object>> newest = new TreeMap<>();
        byKey.forEach(
                (key, versions) -> {
                    versions.sort(Comparator.comparing(r -> lsn(fixture, r)));
                    held.put(key, versions.stream().map(r -> op(fixture, r)).toList());
                    newest.put(key, versions.get(versions.size() - 1));
                });
        assertThat(held)
                .as("%s: each key's changes (by id), in commit order", table)
                .isEqualTo(changes.get(table));

        SourceTable.Expected source = kit.source.expected(table, 1, 1000);
        Map<String, Kind> columns = source.columns();
        newest.forEach(
                (key, row) -> {
                    Map<String, Object> now = source.rows().get(key);
                    if (now == null) {
                        assertThat(op(fixture, row))
                                .as("%s key %d", table, key)
                                .isEqualTo("delete");
                    } else {
                        assertThat(Digest.held(fixture, columns, row))
                                .as("%s key %d: the newest change is the source's row", table, key)
                                .isEqualTo(Digest.expected(fixture, columns, now));
                    }
                });
    }

    /**
     * A destination that commits no position: every source row as it is now, among the rows of its
     * key (the last run's snapshot), whatever earlier runs left.
     */
    private void assertHoldsTheSourcesRows(String table) throws Exception {
        SinkFixture fixture = kit.fixture;
        SourceTable.Expected source = kit.source.expected(table, 1, 1000);
        Map<Long, List<String>> held = new TreeMap<>();
        for (Map<String, Object> row : fixture.rows(kit.dir, table)) {
            held.computeIfAbsent(((Number) row.get("id")).longValue(), k -> new ArrayList<>())
                    .add(Digest.held(fixture, source.columns(), row));
        }
        source.rows()
                .forEach(
                        (key, row) ->
                                assertThat(held.getOrDefault(key, List.of()))
                                        .as("%s key %d: the source's row", table, key)
                                        .contains(Digest.expected(fixture, source.columns(), row)));
    }

    private static String lsn(SinkFixture fixture, Map<String, Object> row) {
        return String.valueOf(row.get(fixture.column(LSN)));
    }

    private static String op(SinkFixture fixture, Map<String, Object> row) {
        return String.valueOf(row.get(fixture.column(OP)));
    }
}
