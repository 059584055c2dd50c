package io.skippr.sinks.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SqlNamesTest {
    private final SqlNames names = new SqlNames(63);

    @Test
    void tablesAreSnakeCaseAndLongNamesKeepAPrefixAndAHash() {
        assertThat(names.table("OrderItems")).isEqualTo("order_items");
        String a = names.table("a".repeat(100));
        String b = names.table("a".repeat(99) + "b");
        assertThat(a).hasSize(63).startsWith("a".repeat(54) + "_");
        assertThat(b).hasSize(63).startsWith("a".repeat(54) + "_").isNotEqualTo(a);
        assertThat(names.table("a".repeat(100))).as("deterministic").isEqualTo(a);
    }

    @Test
    void columnsKeepTheirNameAndAreCutAtACharacterBoundary() {
        assertThat(names.column("Mixed \"Case\"")).isEqualTo("Mixed \"Case\"");
        assertThat(names.column("_skippr_id")).isEqualTo("_skippr_id_source");
        assertThat(names.column("")).isEqualTo("_");
        String cut = names.column("😀".repeat(30)); // 120 bytes
        assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(63);
        assertThat(cut).startsWith("😀".repeat(13) + "_");
    }

    @Test
    void stagingNamesAreDeterministicAndDifferPerBatch() {
        String one = SqlNames.staging("orders", "warehouse", 1, 0, 0, 0);
        assertThat(one).startsWith("_skippr_stage_").hasSize(38);
        assertThat(SqlNames.staging("orders", "warehouse", 1, 0, 0, 0)).isEqualTo(one);
        assertThat(SqlNames.staging("orders", "warehouse", 1, 0, 0, 1)).isNotEqualTo(one);
        assertThat(SqlNames.staging("orders", "warehouse", 1, 1, 0, 0)).isNotEqualTo(one);
        assertThat(SqlNames.staging("orders", "warehouse", 2, 0, 0, 0)).isNotEqualTo(one);
        assertThat(SqlNames.staging("orders", "warehouse", 1, 0, 7, 0)).isNotEqualTo(one);
    }
}
