package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.ScriptedRows;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Write modes merge and replace, and schema evolution in the middle of a stream. */
class PostgresWriteModesITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    static final StreamSchema CUSTOMERS =
            new StreamSchema(
                    "customers",
                    List.of(
                            Column.of("id", DataType.INT32),
                            Column.of("name", DataType.STRING),
                            Column.of("version", DataType.INT64)),
                    List.of("id"),
                    "version");

    /**
     * Rows 0..99 insert customers 0..99; rows 100..149 update customers 0..49; rows 150..159 delete
     * customers 90..99. The cursor {@code version} is the row number, so across subtasks the latest
     * row of a key is the one with the highest version.
     */
    static final class Customers implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;
        private final long offset;

        Customers(long offset) {
            this.offset = offset;
        }

        @Override
        public StreamSchema schema(long i) {
            return CUSTOMERS;
        }

        @Override
        public Object[] values(long i) {
            int id = (int) (i < 100 ? i : i < 150 ? i - 100 : i - 60);
            String name = (i < 100 ? "new-" : i < 150 ? "updated-" : "deleted-") + id;
            return new Object[] {id, name + (offset == 0 ? "" : "-again"), offset + i};
        }

        @Override
        public Operation op(long i) {
            return i < 100 ? Operation.INSERT : i < 150 ? Operation.UPDATE : Operation.DELETE;
        }
    }

    /** Rows {@code i} of a table with a plain key. */
    static final class Numbers implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;
        private final String label;

        Numbers(String label) {
            this.label = label;
        }

        @Override
        public StreamSchema schema(long i) {
            return new StreamSchema(
                    "numbers",
                    List.of(Column.of("n", DataType.INT64), Column.of("label", DataType.STRING)),
                    List.of("n"));
        }

        @Override
        public Object[] values(long i) {
            return new Object[] {i, label};
        }
    }

    @TempDir Path dir;
    private TestPg pg;

    @BeforeEach
    void schema() {
        pg = new TestPg();
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    private void run(
            RuntimeExecutionMode mode,
            SqlSinkSettings settings,
            ScriptedRows.Script script,
            long n,
            long failAt)
            throws Exception {
        StreamExecutionEnvironment env = PostgresSinkITCase.env(mode, 0);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.setParallelism(1); // one subtask: its commits, and so the DDL, come in order
        }
        ScriptedRows.stream(
                        env,
                        n,
                        mode == RuntimeExecutionMode.BATCH ? 1_000_000 : 800,
                        script,
                        failAt,
                        dir.resolve("failed-" + ThreadLocalRandom.current().nextLong()))
                .sinkTo(new SqlSink(settings))
                .uid("p/sink/warehouse");
        env.execute("write modes");
    }

    @Test
    void mergeUpsertsOnTheKeyAndAppliesDeletes() throws Exception {
        run(
                RuntimeExecutionMode.BATCH,
                pg.prepare("p", true, WriteMode.MERGE),
                new Customers(0),
                160,
                -1);

        String summary =
                "SELECT count(*), count(*) FILTER (WHERE name LIKE 'updated-%'),"
                        + " count(*) FILTER (WHERE name LIKE 'new-%'), max(id) FROM "
                        + pg.table("customers");
        assertThat(TestPg.one(summary)).containsExactly("90", "50", "40", "89");
        assertThat(
                        TestPg.one(
                                "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE"
                                        + " conrelid = '"
                                        + pg.table("customers")
                                        + "'::regclass AND contype = 'p'"))
                .containsExactly("PRIMARY KEY (id)");

        run(
                RuntimeExecutionMode.BATCH,
                pg.prepare("p", true, WriteMode.MERGE),
                new Customers(1000),
                120,
                -1);
        assertThat(TestPg.one(summary))
                .as("customers 90..99 come back; 0..19 updated again; no duplicates")
                .containsExactly("100", "20", "80", "99");
        assertThat(
                        TestPg.one(
                                "SELECT name, version FROM "
                                        + pg.table("customers")
                                        + " WHERE id = 5"))
                .containsExactly("updated-5-again", "1105");
    }

    @Test
    void replaceSwapsInTheNewTableAndKeepsItsGrants() throws Exception {
        String reader = "skippr_reader_" + Long.toHexString(System.nanoTime());
        TestPg.exec("CREATE ROLE " + reader);
        try {
            run(
                    RuntimeExecutionMode.BATCH,
                    pg.prepare("p", true, WriteMode.REPLACE),
                    new Numbers("first"),
                    100,
                    -1);
            TestPg.exec(
                    "GRANT USAGE ON SCHEMA " + TestPg.quote(pg.schema) + " TO " + reader,
                    "GRANT SELECT ON " + pg.table("numbers") + " TO " + reader);

            run(
                    RuntimeExecutionMode.BATCH,
                    pg.prepare("p", true, WriteMode.REPLACE),
                    new Numbers("second"),
                    40,
                    -1);

            String summary =
                    "SELECT count(*), min(label), max(label), has_table_privilege('"
                            + reader
                            + "', '"
                            + pg.table("numbers")
                            + "', 'SELECT') FROM "
                            + pg.table("numbers");
            assertThat(TestPg.one(summary)).containsExactly("40", "second", "second", "t");

            assertThatThrownBy(
                            () ->
                                    run(
                                            RuntimeExecutionMode.BATCH,
                                            pg.prepare("p", true, WriteMode.REPLACE),
                                            new Numbers("third"),
                                            300,
                                            250))
                    .hasStackTraceContaining("injected failure");
            assertThat(TestPg.one(summary))
                    .as("a failed replace leaves the table as it was")
                    .containsExactly("40", "second", "second", "t");

            TestPg.exec(
                    "CREATE VIEW "
                            + pg.table("numbers_view")
                            + " AS SELECT n, label FROM "
                            + pg.table("numbers"));
            run(
                    RuntimeExecutionMode.BATCH,
                    pg.prepare("p", true, WriteMode.REPLACE),
                    new Numbers("fourth"),
                    10,
                    -1);
            assertThat(TestPg.one("SELECT count(*), min(label) FROM " + pg.table("numbers_view")))
                    .as("a table a view depends on is refilled in place")
                    .containsExactly("10", "fourth");
        } finally {
            TestPg.exec("DROP OWNED BY " + reader, "DROP ROLE " + reader);
        }
    }

    /**
     * Rows 0..499 have (n, amount integer); from row 500 amount is a bigint and a column note
     * follows: a new schema version in the middle of a continuous run.
     */
    static final class Evolving implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;

        @Override
        public StreamSchema schema(long i) {
            return i < 500
                    ? new StreamSchema(
                            "evolving",
                            List.of(
                                    Column.of("n", DataType.INT64),
                                    Column.of("amount", DataType.INT32)),
                            List.of("n"))
                    : new StreamSchema(
                            "evolving",
                            List.of(
                                    Column.of("n", DataType.INT64),
                                    Column.of("amount", DataType.INT64),
                                    Column.of("note", DataType.STRING)),
                            List.of("n"));
        }

        @Override
        public Object[] values(long i) {
            return i < 500
                    ? new Object[] {i, (int) i}
                    : new Object[] {i, 10_000_000_000L + i, "note-" + i};
        }
    }

    @Test
    void aColumnAddedMidStreamIsAddedAndAWiderTypeWidensTheColumn() throws Exception {
        run(
                RuntimeExecutionMode.STREAMING,
                pg.prepare("p", false, WriteMode.APPEND),
                new Evolving(),
                1000,
                -1);

        assertThat(
                        TestPg.rows(
                                "SELECT column_name, data_type FROM information_schema.columns"
                                        + " WHERE table_schema = '"
                                        + pg.schema
                                        + "' AND table_name = 'evolving' ORDER BY"
                                        + " ordinal_position"))
                .extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly(
                        "n bigint",
                        "amount bigint",
                        "_skippr_id text",
                        "_skippr_synced_at timestamp with time zone",
                        "note text");
        assertThat(
                        TestPg.one(
                                "SELECT count(*), count(DISTINCT n), count(note),"
                                        + " count(*) FILTER (WHERE n < 500 AND note IS NULL"
                                        + " AND amount = n), sum(amount) FROM "
                                        + pg.table("evolving")))
                .containsExactly(
                        "1000",
                        "1000",
                        "500",
                        "500",
                        String.valueOf(
                                500L * 499 / 2 + 500 * 10_000_000_000L + (500L + 999) * 500 / 2));
        assertThat(TestPg.one("SELECT count(*) > 1 FROM " + pg.table("_skippr_commits")))
                .as("several commits")
                .containsExactly("t");
    }
}
