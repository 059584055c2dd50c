package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PostgreSQL's prepared path (a {@code --once} append run on a server with {@code
 * max_prepared_transactions > 0}) with the {@code skipprd} process killed between each two of its
 * steps ({@code -Dskippr.failpoint=<stage>}, which halts the JVM as {@code kill -9} would), then
 * run again.
 *
 * <p>Passes when, right after the kill, the marker rows count exactly the rows visible, and after
 * the rerun (with 100 new source rows) the target holds each source row once (every key, one {@code
 * _skippr_id} each, the source's amount sum), nothing of the pipeline is left prepared, and a third
 * run adds nothing.
 */
class PostgresPreparedKillITCase {
    @TempDir Path dir;
    private PostgresFixture fixture;
    private SourceTable source;
    private KitPipeline pipeline;

    @BeforeEach
    void open() throws Exception {
        fixture = new PostgresFixture();
        source = new SourceTable();
        pipeline = new KitPipeline(dir, fixture, source, null); // skipprd processes only
    }

    @AfterEach
    void close() throws Exception {
        // a failed test may leave prepared transactions whose locks would keep the schema's drop
        // waiting for ever
        try (Connection c = PostgresFixture.connect()) {
            for (String gid : preparedGids()) {
                c.createStatement().execute("ROLLBACK PREPARED '" + gid + "'");
            }
        }
        source.close();
        fixture.close();
    }

    /**
     * Killed between two COMMIT PREPAREDs, the step where a run is half visible; each other step is
     * stopped in {@code PostgresPreparedCrashITCase} without a process of its own (a process run
     * costs half a minute: three a stage would add minutes to the suite).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"after-commit-prepared:1"})
    void aProcessKilledBetweenTwoStepsAndRerunLeavesEachRowOnce(String stage) throws Exception {
        KitPipeline.Run run = pipeline.table("orders", "updated_at");
        source.orders("orders", 1, 2001);
        int killed = pipeline.process("killed", run, stage);
        assertThat(killed).as(pipeline.err("killed")).isEqualTo(137);
        assertThat(pipeline.err("killed"))
                .contains("skippr: injected failure: " + stage.split(":")[0]);
        List<Long> visible = visible();
        assertThat(visible.get(1))
                .as("killed " + stage + ": rows the marker rows count against rows visible")
                .isEqualTo(visible.get(0));

        source.orders("orders", 2001, 2101);
        int rerun = pipeline.process("rerun", run, null);
        assertThat(rerun).as(pipeline.err("rerun")).isZero();
        assertHolds(1, 2101);
        assertThat(preparedLeft()).as("nothing of the pipeline left prepared").isZero();

        int third = pipeline.process("third", run, null);
        assertThat(third).as(pipeline.err("third")).isZero();
        assertHolds(1, 2101);
    }

    /** Rows visible in the target, and rows the visible marker rows count. */
    private List<Long> visible() throws Exception {
        try (Connection c = PostgresFixture.connect()) {
            long rows = fixture.rows(dir, "orders").size();
            long marked = 0;
            try (ResultSet rs =
                    c.createStatement()
                            .executeQuery(
                                    "SELECT coalesce(sum(rows), 0) FROM \""
                                            + fixture.schema()
                                            + "\"._skippr_commits WHERE pipeline = 'p'")) {
                rs.next();
                marked = rs.getLong(1);
            } catch (java.sql.SQLException e) {
                if (!"42P01".equals(e.getSQLState())) { // no marker table: nothing committed
                    throw e;
                }
            }
            return List.of(rows, marked);
        }
    }

    /** Prepared transactions still holding rows of this fixture's schema. */
    private long preparedLeft() throws Exception {
        return preparedGids().size();
    }

    /** The ids of the prepared transactions that hold locks in this fixture's schema. */
    private List<String> preparedGids() throws Exception {
        try (Connection c = PostgresFixture.connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT DISTINCT x.gid FROM pg_locks l JOIN"
                                                + " pg_prepared_xacts x ON l.virtualtransaction ="
                                                + " (SELECT t.virtualtransaction FROM pg_locks t"
                                                + " WHERE t.locktype = 'transactionid' AND"
                                                + " t.transactionid = x.transaction AND t.pid IS"
                                                + " NULL) JOIN pg_class r ON r.oid"
                                                + " = l.relation JOIN pg_namespace n ON n.oid ="
                                                + " r.relnamespace WHERE n.nspname = '"
                                                + fixture.schema()
                                                + "'")) {
            List<String> gids = new java.util.ArrayList<>();
            while (rs.next()) {
                gids.add(rs.getString(1));
            }
            return gids;
        }
    }

    private void assertHolds(long from, long to) throws Exception {
        List<Map<String, Object>> rows = fixture.rows(dir, "orders");
        Set<Object> ids = new HashSet<>();
        Set<Long> keys = new HashSet<>();
        BigDecimal amounts = BigDecimal.ZERO;
        for (Map<String, Object> row : rows) {
            ids.add(row.get("_skippr_id"));
            keys.add(((Number) row.get("id")).longValue());
            amounts = amounts.add(new BigDecimal(String.valueOf(row.get("amount"))));
        }
        long n = to - from;
        assertThat(keys).as("every source row arrived").hasSize((int) n);
        assertThat(ids).as("one _skippr_id per source row").hasSize((int) n);
        assertThat(rows).as("no row twice").hasSize((int) n);
        assertThat(amounts).isEqualByComparingTo(SourceTable.amountSum(from, to));
    }
}
