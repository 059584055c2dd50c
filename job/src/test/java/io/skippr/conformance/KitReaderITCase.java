package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's reader against the servers {@code scripts/test} starts: a table or database the sink
 * has not created is zero rows, and a table that cannot be read fails the check ("mutants" whose
 * read errors {@code keys()} once took for "nothing visible").
 */
@org.junit.jupiter.api.extension.ExtendWith(io.skippr.sinks.clickhouse.OneClassAtATime.class)
class KitReaderITCase {
    @TempDir Path dir;

    @Test
    void aPostgresSchemaOrTableThatDoesNotExistIsZeroRows() throws Exception {
        PostgresFixture fixture = new PostgresFixture();
        try {
            assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("no schema").isZero();
            try (Connection c = PostgresFixture.connect()) {
                c.createStatement().execute("CREATE SCHEMA \"" + fixture.schema() + "\"");
            }
            assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("no table").isZero();
        } finally {
            fixture.close();
        }
    }

    @Test
    void aPostgresTableThatCannotBeReadFailsTheCheck() throws Exception {
        PostgresFixture fixture = new PostgresFixture();
        try {
            try (Connection c = PostgresFixture.connect()) {
                c.createStatement().execute("CREATE SCHEMA \"" + fixture.schema() + "\"");
                c.createStatement()
                        .execute(
                                "CREATE VIEW \""
                                        + fixture.schema()
                                        + "\".orders AS SELECT 1::bigint / 0 AS id");
            }
            assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("division by zero");
        } finally {
            fixture.close();
        }
    }

    @Test
    void aClickHouseDatabaseOrTableThatDoesNotExistIsZeroRowsAndAnExistingOneIsRead()
            throws Exception {
        ClickHouseFixture fixture = new ClickHouseFixture();
        try {
            assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("no database").isZero();
            ClickHouseFixture.query("CREATE DATABASE `" + fixture.database() + "`");
            assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("no table").isZero();
            ClickHouseFixture.query(
                    "CREATE TABLE `"
                            + fixture.database()
                            + "`.orders (id Int64, _skippr_id String)"
                            + " ENGINE = ReplacingMergeTree ORDER BY _skippr_id");
            ClickHouseFixture.query(
                    "INSERT INTO `"
                            + fixture.database()
                            + "`.orders VALUES (1, 'a'), (2, 'b'), (2, 'c')");
            assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).isEqualTo(2);
        } finally {
            fixture.close();
        }
    }
}
