package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.spi.SourceContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code replication_method} and its names, and the positions a CDC stream commits. */
class CdcSettingsTest {
    private static CdcSettings cdc(String pipeline, Map<String, Object> values, String cursor) {
        Map<String, Object> all = new HashMap<>(values);
        return CdcSettings.of(
                new SourceContext(
                        pipeline, "app_db", new ResolvedSettings(null, all), false, Map.of()),
                cursor);
    }

    @Test
    void namesDefaultToSkipprAndThePipelineInLowerCase() {
        CdcSettings s = cdc("Orders-EU", Map.of("replication_method", "cdc"), null);
        assertThat(s.slot()).isEqualTo("skippr_orders_eu");
        assertThat(s.publication()).isEqualTo("skippr_orders_eu");
        assertThat(s.walWarningBytes()).isEqualTo(1024L * 1024 * 1024);
        assertThat(
                        cdc(
                                        "p",
                                        Map.of(
                                                "replication_method",
                                                "cdc",
                                                "slot_wal_warning_mb",
                                                3L),
                                        null)
                                .walWarningBytes())
                .isEqualTo(3L * 1024 * 1024);
        assertThat(CdcSettings.defaultName("x".repeat(80))).hasSize(63);
    }

    @Test
    void cursorAndFullReadsHaveNoCdcSettings() {
        assertThat(cdc("p", Map.of(), "id")).isNull();
        assertThat(cdc("p", Map.of("replication_method", "full"), null)).isNull();
    }

    @Test
    void contradictionsAndBadNamesAreRefusedWithTheFix() {
        assertThatThrownBy(() -> cdc("p", Map.of("replication_method", "cdc"), "id"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "data_sources.app_db.Postgres.cursor_column: replication_method cdc reads"
                                + " every change from the replication slot and takes no"
                                + " cursor_column: remove cursor_column, or use"
                                + " replication_method cursor");
        assertThatThrownBy(() -> cdc("p", Map.of("replication_method", "cursor"), null))
                .hasMessageContaining(
                        "replication_method cursor needs cursor_column: name the column whose"
                                + " growth marks new or changed rows, or use replication_method"
                                + " cdc");
        assertThatThrownBy(() -> cdc("p", Map.of("replication_method", "full"), "id"))
                .hasMessageContaining(
                        "replication_method full reads every row each run and takes no"
                                + " cursor_column: remove cursor_column, or use"
                                + " replication_method cursor");
        assertThatThrownBy(() -> cdc("p", Map.of("slot_name", "s"), null))
                .hasMessageContaining(
                        "data_sources.app_db.Postgres.slot_name: slot_name is only used by"
                                + " replication_method cdc: remove it, or set replication_method:"
                                + " cdc");
        assertThatThrownBy(() -> cdc("p", Map.of("slot_wal_warning_mb", 5L), null))
                .hasMessageContaining(
                        "data_sources.app_db.Postgres.slot_wal_warning_mb: slot_wal_warning_mb is"
                                + " only used by replication_method cdc");
        assertThatThrownBy(
                        () ->
                                cdc(
                                        "p",
                                        Map.of(
                                                "replication_method",
                                                "cdc",
                                                "slot_wal_warning_mb",
                                                0L),
                                        null))
                .hasMessageContaining(
                        "data_sources.app_db.Postgres.slot_wal_warning_mb: slot_wal_warning_mb is 0:"
                                + " give the MiB of WAL the slot may keep before Skippr warns, 1 or"
                                + " more");
        assertThatThrownBy(
                        () ->
                                cdc(
                                        "p",
                                        Map.of("replication_method", "cdc", "slot_name", "My-Slot"),
                                        null))
                .hasMessageContaining(
                        "slot_name My-Slot is not a valid replication slot name: use 1 to 63"
                                + " lower-case letters, digits and underscores");
    }

    @Test
    void theCommittedLsnIsTheLowestTableTopAndNoneWithoutEveryTable() {
        TableInfo a = new TableInfo("s", "a", List.of(), List.of(), null);
        TableInfo b = new TableInfo("s", "b", List.of(), List.of(), null);
        String low = ReadPositions.of(List.of(CdcPositions.entry("slot", 0x10)));
        String high =
                ReadPositions.of(
                        List.of(
                                CdcPositions.entry("slot", 0x20),
                                CdcPositions.entry("slot", 0x1F)));
        assertThat(CdcPositions.committed(Map.of("a", low, "b", high), List.of(a, b), "slot"))
                .isEqualTo(0x10);
        assertThat(CdcPositions.committed(Map.of("a", low), List.of(a, b), "slot")).isZero();
        assertThat(CdcPositions.committed(Map.of("a", high, "b", high), List.of(a, b), "other"))
                .isZero();
        assertThat(CdcPositions.compact(high))
                .isEqualTo(ReadPositions.of(List.of(CdcPositions.entry("slot", 0x20))));
        assertThat(CdcPositions.compact(ReadPositions.of(List.of("cursor entry")))).isNull();
    }

    @Test
    void lsnTextSortsInCommitOrderWithSnapshotRowsFirst() {
        assertThat(CdcRows.lsn(0x5E24E30, 0)).isEqualTo("0000000005E24E3000000000");
        assertThat(CdcRows.lsn(0x5E24E30, 0)).isLessThan(CdcRows.lsn(0x5E24E30, 1));
        assertThat(CdcRows.lsn(0x5E24E30, 0xFFFF)).isLessThan(CdcRows.lsn(0x100000000L, 1));
        assertThat(CdcRows.lsn(0xABCDEF0123456789L, 0xFFFFFFFFL))
                .isEqualTo("ABCDEF0123456789FFFFFFFF");
    }
}
