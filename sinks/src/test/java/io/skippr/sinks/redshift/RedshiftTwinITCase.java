package io.skippr.sinks.redshift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.StagingTable;
import io.skippr.sinks.staged.StagedFileLoader;
import io.skippr.sinks.staged.StagedLayout;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redshift twin, driven by the official Redshift JDBC driver. */
class RedshiftTwinITCase {
    private TestRedshift redshift;
    private final String schema = "skippr_twin_" + Long.toHexString(System.nanoTime() >>> 8);

    @BeforeEach
    void start() throws Exception {
        redshift = new TestRedshift();
    }

    @AfterEach
    void stop() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
        redshift.close();
    }

    @Test
    void theDriverLogsInAndTransactionsRollBack() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + schema + "\"");
            st.execute("CREATE TABLE \"" + schema + "\".t (id bigint)");
            c.setAutoCommit(false);
            st.execute("INSERT INTO \"" + schema + "\".t VALUES (1), (2)");
            c.rollback();
            st.execute("INSERT INTO \"" + schema + "\".t VALUES (3)");
            c.commit();
            c.setAutoCommit(true);
            assertThat(count(st, "SELECT count(*), sum(id) FROM \"" + schema + "\".t"))
                    .isEqualTo("1/3");
        }
    }

    @Test
    void aConstructRedshiftRefusesFailsTheTransaction() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + schema + "\"");
            st.execute("CREATE TABLE \"" + schema + "\".t (id bigint)");
            c.setAutoCommit(false);
            st.execute("INSERT INTO \"" + schema + "\".t VALUES (1)");
            assertThatThrownBy(
                            () ->
                                    st.execute(
                                            "INSERT INTO \""
                                                    + schema
                                                    + "\".t VALUES (2) ON CONFLICT DO NOTHING"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Redshift does not support INSERT … ON CONFLICT");
            assertThatThrownBy(() -> st.execute("SELECT 1"))
                    .hasMessageContaining("current transaction is aborted");
            c.rollback();
            assertThatThrownBy(() -> st.execute("TRUNCATE \"" + schema + "\".t"))
                    .hasMessageContaining("cannot run inside a transaction block");
            c.rollback();
            c.setAutoCommit(true);
            assertThat(count(st, "SELECT count(*), 0 FROM \"" + schema + "\".t")).isEqualTo("0/0");
        }
    }

    /**
     * Passes when a COPY from a staged set's manifest loads exactly its rows, values intact (a
     * null, a text reading \\N, quotes, a newline, bytes, a timestamp with zone), inside the
     * transaction: rolled back, nothing is there; committed, the rows are.
     */
    @Test
    void aCopyFromAManifestLoadsItsFilesInTheTransaction() throws Exception {
        StreamSchema schema =
                new StreamSchema(
                        "t",
                        List.of(
                                new Column("id", DataType.INT64, false),
                                new Column("txt", DataType.STRING, true),
                                new Column("raw", DataType.BYTES, true),
                                new Column("at", DataType.TIMESTAMP_TZ, true)),
                        List.of("id"));
        RedshiftDatabase db = redshift.database();
        StagingTable table =
                StagingTable.of(db.dialect(), this.schema, "_skippr_stage_x", schema, "{}");
        try (StagedFileLoader loader = new StagedFileLoader(db.stage(), StagedLayout.DEFAULT)) {
            loader.create(table);
            loader.write(table, row(1, "\\N", new byte[] {0, (byte) 255}, 0), 0);
            loader.write(table, row(2, "say \"hi\",\nthen go", new byte[0], 1_700_000_000), 1);
            loader.write(table, row(3, null, null, -86_400), 2);
            loader.finish();
        }
        String manifest =
                "s3://"
                        + redshift.bucket
                        + "/"
                        + StagedLayout.DEFAULT.manifest(this.schema, "_skippr_stage_x");
        try (Connection c = db.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + this.schema + "\"");
            st.execute(table.create(db.dialect()));
            c.setAutoCommit(false);
            db.copy().load(c, db.dialect().qualified(this.schema, "_skippr_stage_x"), manifest);
            c.rollback();
            db.copy().load(c, db.dialect().qualified(this.schema, "_skippr_stage_x"), manifest);
            c.commit();
            c.setAutoCommit(true);
            List<String> rows = new java.util.ArrayList<>();
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT id, txt, encode(raw, 'hex'), at, _skippr_seq FROM \""
                                    + this.schema
                                    + "\"._skippr_stage_x ORDER BY id")) {
                while (rs.next()) {
                    rows.add(
                            rs.getLong(1)
                                    + "|"
                                    + rs.getString(2)
                                    + "|"
                                    + rs.getString(3)
                                    + "|"
                                    + rs.getObject(4, java.time.OffsetDateTime.class)
                                    + "|"
                                    + rs.getLong(5));
                }
            }
            assertThat(rows)
                    .containsExactly(
                            "1|\\N|00ff|1970-01-01T00:00Z|0",
                            "2|say \"hi\",\nthen go||2023-11-14T22:13:20Z|1",
                            "3|null|null|1969-12-31T00:00Z|2");
        }
    }

    /**
     * Passes when a 100-character table and column name (over PostgreSQL's 63 bytes, under
     * Redshift's 127) behave through the twin as on Redshift: created, loaded by COPY from a
     * manifest, read back by their names with the full names in the result's metadata and in the
     * dialect's catalog lookup, and a second long name sharing the first 63 bytes is a table of its
     * own.
     */
    @Test
    void namesOver63BytesBehaveAsOnRedshift() throws Exception {
        String longTable = "t".repeat(70) + "_long_table_" + "u".repeat(18);
        String twinTable = "t".repeat(70) + "_long_table_" + "v".repeat(18);
        String longColumn = "c".repeat(45) + "_column_" + "d".repeat(47);
        assertThat(longTable).hasSize(100);
        assertThat(longColumn).hasSize(100);
        StreamSchema stream =
                new StreamSchema(
                        "t",
                        List.of(
                                new Column("id", DataType.INT64, false),
                                new Column(longColumn, DataType.STRING, true)),
                        List.of("id"));
        RedshiftDatabase db = redshift.database();
        StagingTable table = StagingTable.of(db.dialect(), this.schema, longTable, stream, "{}");
        try (StagedFileLoader loader = new StagedFileLoader(db.stage(), StagedLayout.DEFAULT)) {
            loader.create(table);
            for (int i = 1; i <= 3; i++) {
                loader.write(table, longRow(i, "v" + i), i - 1);
            }
            loader.finish();
        }
        String manifest =
                "s3://"
                        + redshift.bucket
                        + "/"
                        + StagedLayout.DEFAULT.manifest(this.schema, longTable);
        try (Connection c = db.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + this.schema + "\"");
            st.execute(table.create(db.dialect()));
            st.execute(
                    "CREATE TABLE \""
                            + this.schema
                            + "\".\""
                            + twinTable
                            + "\" (id bigint, "
                            + longColumn
                            + " varchar(10))");
            c.setAutoCommit(false);
            db.copy().load(c, db.dialect().qualified(this.schema, longTable), manifest);
            c.commit();
            c.setAutoCommit(true);
            assertThat(db.dialect().columns(c, this.schema, longTable).keySet())
                    .startsWith("id", longColumn);
            assertThat(db.dialect().columns(c, this.schema, twinTable).keySet())
                    .containsExactly("id", longColumn);
            List<String> rows = new java.util.ArrayList<>();
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT id, \""
                                    + longColumn
                                    + "\" FROM \""
                                    + this.schema
                                    + "\".\""
                                    + longTable
                                    + "\" ORDER BY id")) {
                assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo(longColumn);
                while (rs.next()) {
                    rows.add(rs.getLong(1) + "|" + rs.getString(2));
                }
            }
            assertThat(rows).containsExactly("1|v1", "2|v2", "3|v3");
            assertThat(
                            count(
                                    st,
                                    "SELECT count(*), 0 FROM \""
                                            + this.schema
                                            + "\".\""
                                            + twinTable
                                            + "\""))
                    .isEqualTo("0/0");
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT table_name FROM information_schema.tables WHERE table_schema"
                                    + " = '"
                                    + this.schema
                                    + "' ORDER BY table_name")) {
                List<String> tables = new java.util.ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
                assertThat(tables).containsExactlyInAnyOrder(longTable, twinTable);
            }
        }
    }

    /** Passes when a COPY the twin does not implement, or of a missing manifest, fails. */
    @Test
    void aCopyTheTwinDoesNotImplementOrOfAMissingManifestFails() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + schema + "\"");
            st.execute("CREATE TABLE \"" + schema + "\".t (id bigint)");
            String from =
                    "COPY \""
                            + schema
                            + "\".t FROM 's3://"
                            + redshift.bucket
                            + "/none.manifest'"
                            + " IAM_ROLE 'arn:aws:iam::1:role/x' MANIFEST ";
            assertThatThrownBy(() -> st.execute(from + "FORMAT AS PARQUET"))
                    .hasMessageContaining("the Redshift twin loads FORMAT AS CSV only");
            assertThatThrownBy(() -> st.execute(from + "CSV MAXERROR 10"))
                    .hasMessageContaining("does not implement the COPY option MAXERROR");
            assertThatThrownBy(() -> st.execute(from + "CSV GZIP"))
                    .hasMessageContaining("Problem reading manifest file")
                    .hasMessageContaining("NoSuchKey");
            assertThatThrownBy(() -> st.execute("COPY \"" + schema + "\".t FROM STDIN"))
                    .hasMessageContaining("implements only COPY <table> FROM 's3://…'");
        }
    }

    private static StreamSchema schema(StreamSchema s) {
        return s;
    }

    private static Row row(long id, String txt, byte[] raw, long epochSecond) {
        return new Row(
                        "t",
                        1,
                        io.skippr.core.record.Operation.INSERT,
                        new Object[] {id, txt, raw, java.time.Instant.ofEpochSecond(epochSecond)},
                        "p" + id,
                        null,
                        0)
                .identified("id" + id, 0);
    }

    private static Row longRow(long id, String value) {
        return new Row(
                        "t",
                        1,
                        io.skippr.core.record.Operation.INSERT,
                        new Object[] {id, value},
                        "p" + id,
                        null,
                        0)
                .identified("id" + id, 0);
    }

    private static String count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getLong(2);
        }
    }
}
