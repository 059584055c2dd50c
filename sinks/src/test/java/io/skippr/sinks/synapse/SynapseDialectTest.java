package io.skippr.sinks.synapse;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.TypeChange;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The T-SQL the Synapse sink writes where the fake cannot tell it from PostgreSQL's (the WITH
 * clause, distribution choice, drop-if-exists, the COPY INTO's column order), its evolution policy,
 * and the exact texts of its load-stage refusals.
 */
class SynapseDialectTest {
    private final SynapseDialect roundRobin = new SynapseDialect(false);
    private final SynapseDialect hash = new SynapseDialect(true);

    @Test
    void tablesAreColumnstoreStagingTablesAreHeapsAndHashNeedsAKey() {
        List<String> cols = List.of("id", "name");
        List<String> types = List.of("BIGINT", "NVARCHAR(4000)");
        assertThat(hash.createTable("\"s\".\"orders\"", cols, types, List.of("id")))
                .isEqualTo(
                        "CREATE TABLE \"s\".\"orders\" (\"id\" BIGINT, \"name\" NVARCHAR(4000))"
                                + " WITH (DISTRIBUTION = HASH(\"id\"), CLUSTERED COLUMNSTORE"
                                + " INDEX)");
        assertThat(hash.createTable("\"s\".\"orders\"", cols, types, List.of()))
                .endsWith("WITH (DISTRIBUTION = ROUND_ROBIN, CLUSTERED COLUMNSTORE INDEX)");
        assertThat(roundRobin.createTable("\"s\".\"orders\"", cols, types, List.of("id")))
                .endsWith("WITH (DISTRIBUTION = ROUND_ROBIN, CLUSTERED COLUMNSTORE INDEX)");
        assertThat(roundRobin.createTable("\"s\".\"_skippr_stage_0a1b\"", cols, types, List.of()))
                .isEqualTo(
                        "IF OBJECT_ID(N'\"s\".\"_skippr_stage_0a1b\"', N'U') IS NULL CREATE TABLE"
                                + " \"s\".\"_skippr_stage_0a1b\" (\"id\" BIGINT, \"name\""
                                + " NVARCHAR(4000)) WITH (DISTRIBUTION = ROUND_ROBIN, HEAP)");
        assertThat(roundRobin.dropTable("\"s\".\"it's\""))
                .isEqualTo(
                        "IF OBJECT_ID(N'\"s\".\"it''s\"', N'U') IS NOT NULL DROP TABLE"
                                + " \"s\".\"it's\"");
        assertThat(roundRobin.addColumn("\"s\".\"t\"", "c", "INT"))
                .isEqualTo("ALTER TABLE \"s\".\"t\" ADD \"c\" INT");
    }

    @Test
    void copyIntoListsTheColumnsInTheStagedFilesOrder() {
        List<String> order =
                SynapseCopy.fileOrder(
                        List.of(
                                "a",
                                "b",
                                "_skippr_id",
                                "_skippr_synced_at",
                                "_skippr_delete_row",
                                "_skippr_seq",
                                "_skippr_deleted"));
        assertThat(order)
                .as("a source column _skippr_deleted (change data capture) is one of the stream's")
                .containsExactly(
                        "a",
                        "b",
                        "_skippr_deleted",
                        "_skippr_delete_row",
                        "_skippr_seq",
                        "_skippr_id",
                        "_skippr_synced_at");
        assertThat(
                        SynapseCopy.fileOrder(
                                List.of(
                                        "a",
                                        "_skippr_id",
                                        "_skippr_synced_at",
                                        "_skippr_deleted",
                                        "_skippr_seq")))
                .as("a table for files staged before version 3 calls the delete flag so")
                .containsExactly(
                        "a", "_skippr_deleted", "_skippr_seq", "_skippr_id", "_skippr_synced_at");
        assertThat(
                        SynapseCopy.statement(
                                "\"s\".\"t\"",
                                List.of("a"),
                                List.of("https://acct.blob.core.windows.net/c/p-0.parquet"),
                                "k'ey"))
                .isEqualTo(
                        "COPY INTO \"s\".\"t\" (\"a\") FROM"
                                + " 'https://acct.blob.core.windows.net/c/p-0.parquet' WITH"
                                + " (FILE_TYPE = 'PARQUET', CREDENTIAL = (IDENTITY = 'Storage"
                                + " Account Key', SECRET = 'k''ey'))");
        assertThat(SynapseNames.parts("\"s.x\".\"t\"\"q\"")).containsExactly("s.x", "t\"q");
    }

    @Test
    void aColumnKeepsItsTypeOnlyWhereItHoldsEveryNewValue() {
        assertThat(roundRobin.change("BIGINT", DataType.INT32)).isEqualTo(TypeChange.KEEP);
        assertThat(roundRobin.change("FLOAT", DataType.FLOAT32)).isEqualTo(TypeChange.KEEP);
        assertThat(roundRobin.change("NVARCHAR(MAX)", DataType.STRING)).isEqualTo(TypeChange.KEEP);
        assertThat(roundRobin.change("DECIMAL(20,4)", DataType.decimal(10, 2)))
                .isEqualTo(TypeChange.KEEP);
        assertThat(roundRobin.change("INT", DataType.INT64).reason())
                .isEqualTo(
                        "INT cannot hold every BIGINT value, and Skippr does not change a"
                                + " column's type in a Synapse columnstore table");
    }

    @Test
    void valuesSynapseCannotHoldAreNamed() {
        assertThat(SynapseRowCheck.problem(DataType.STRING, "x".repeat(4001)))
                .isEqualTo(
                        "Synapse NVARCHAR(4000) holds at most 4000 UTF-16 code units, and this"
                                + " value has 4001");
        assertThat(SynapseRowCheck.problem(DataType.STRING, "x".repeat(4000))).isNull();
        assertThat(SynapseRowCheck.problem(DataType.BYTES, new byte[8001]))
                .isEqualTo(
                        "Synapse VARBINARY(8000) holds at most 8000 bytes, and this value has"
                                + " 8001");
        assertThat(SynapseRowCheck.problem(DataType.decimal(5, 2), new BigDecimal("1234.5")))
                .isEqualTo("1234.5 has more integer digits than DECIMAL(5,2) holds");
        assertThat(SynapseRowCheck.problem(DataType.DATE, LocalDate.of(10000, 1, 1)))
                .isEqualTo("+10000-01-01 is outside the years 1 to 9999 that Synapse stores");
        assertThat(SynapseRowCheck.problem(DataType.FLOAT64, Double.NaN)).isNull();
        assertThat(SynapseParquet.value(DataType.FLOAT64, Double.NaN)).isNull();
        assertThat(SynapseParquet.value(DataType.FLOAT32, 1.5f)).isEqualTo(1.5f);
    }
}
