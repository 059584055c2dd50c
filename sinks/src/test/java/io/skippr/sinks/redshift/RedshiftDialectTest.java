package io.skippr.sinks.redshift;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.TypeChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the Redshift dialect writes, checked against what Redshift refuses. */
class RedshiftDialectTest {
    private final RedshiftDialect dialect = new RedshiftDialect();

    /**
     * Passes when none of the statements the dialect builds (merge, marker table, table creation,
     * swap's rename, emptying, COPY) holds a construct of {@link RedshiftTwin#REFUSED}, and fails
     * naming the statement and construct otherwise. The twin refuses them at run time too; this
     * covers the statements a test run may not reach.
     */
    @Test
    void theDialectsStatementsHoldNothingRedshiftRefuses() {
        String target = dialect.qualified("raw", "orders");
        List<String> statements = new ArrayList<>();
        statements.addAll(
                dialect.mergeStatements(
                        target,
                        "SELECT * FROM " + dialect.qualified("raw", "_skippr_stage_x"),
                        List.of("id"),
                        List.of("id", "status", "updated_at"),
                        List.of("\"updated_at\"", "_skippr_rank", "\"_skippr_seq\""),
                        "\"updated_at\""));
        statements.add(dialect.markerTable(dialect.qualified("raw", "_skippr_commits")));
        statements.add(
                dialect.createTable(
                        target,
                        List.of("id", "raw"),
                        List.of(
                                dialect.columnType(DataType.INT64),
                                dialect.columnType(DataType.BYTES)),
                        List.of("id")));
        statements.add(dialect.addColumn(target, "note", dialect.columnType(DataType.STRING)));
        statements.add(dialect.emptyTable(target));
        statements.add(
                RedshiftCopy.statement(
                        target, "s3://b/k.manifest", "IAM_ROLE 'arn:aws:iam::1:role/r'"));
        List<String> refused = new ArrayList<>();
        for (String sql : statements) {
            String bare = RedshiftTwin.withoutLiterals(sql);
            for (Map.Entry<Pattern, String> r : RedshiftTwin.REFUSED.entrySet()) {
                if (r.getKey().matcher(bare).find() && !RedshiftTwin.isCopy(sql)) {
                    refused.add(r.getValue() + " in: " + sql);
                }
            }
        }
        assertThat(refused).isEmpty();
        assertThat(statements.get(0)).startsWith("CREATE TEMP TABLE \"_skippr_merge\" AS");
        assertThat(dialect.emptyTable(target)).isEqualTo("DELETE FROM \"raw\".\"orders\"");
        assertThat(statements.get(statements.size() - 4)).doesNotContain("PRIMARY KEY");
    }

    /** Passes when the policy keeps what holds every value and refuses every type change. */
    @Test
    void theEvolutionPolicyWidensNothing() {
        assertThat(dialect.change("bigint", DataType.INT32)).isEqualTo(TypeChange.KEEP);
        assertThat(dialect.change("double precision", DataType.FLOAT32)).isEqualTo(TypeChange.KEEP);
        assertThat(dialect.change("character varying(65535)", DataType.UUID))
                .isEqualTo(TypeChange.KEEP);
        assertThat(dialect.change("bytea", DataType.BYTES)).isEqualTo(TypeChange.KEEP);
        assertThat(dialect.change("integer", DataType.INT64).action())
                .isEqualTo(TypeChange.Action.REFUSE);
        assertThat(dialect.change("character varying(10)", DataType.STRING).reason())
                .contains("Redshift cannot change a column's type in the transaction");
    }

    /** Passes when the names fold to lower case and keep up to 127 bytes. */
    @Test
    void namesFoldToLowerCaseAndKeep127Bytes() {
        assertThat(dialect.names().column("Customer ID")).isEqualTo("customer id");
        assertThat(dialect.names().column("Ünï")).isEqualTo("Ünï");
        String long100 = "c".repeat(100);
        assertThat(dialect.names().column(long100)).isEqualTo(long100);
        assertThat(dialect.names().column("c".repeat(130))).hasSize(127);
    }
}
