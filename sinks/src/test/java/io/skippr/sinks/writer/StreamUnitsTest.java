package io.skippr.sinks.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaVersions;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writer loop the SQL, file and Iceberg writers share. */
class StreamUnitsTest {
    private static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("note", DataType.STRING)),
                    List.of("id"),
                    "id");
    private static final StreamSchema ORDERS_V2 =
            ORDERS.withColumns(List.of(Column.of("extra", DataType.STRING)));
    private static final StreamSchema REFUNDS =
            new StreamSchema("refunds", List.of(Column.of("id", DataType.INT64)), List.of());

    private final SchemaVersions schemas = new SchemaVersions();
    private final List<String> log = new ArrayList<>();
    private int opened;

    /** A unit that records its life in the log; a finished one becomes its description. */
    private final class Unit extends StreamUnit {
        final int n = opened++;

        Unit(StreamSchema schema) {
            super(schema);
            log.add("open " + this);
        }

        @Override
        public String toString() {
            return schema().stream() + "#" + n;
        }
    }

    private final StreamUnits<Unit, String> units =
            new StreamUnits<>(
                    schemas,
                    unit -> {
                        log.add("finish " + unit);
                        return unit + ":" + unit.rows() + ":" + unit.maxCursor();
                    });

    private StreamUnitsTest() {
        schemas.add(ORDERS);
        schemas.add(ORDERS_V2);
        schemas.add(REFUNDS);
    }

    private static Row row(StreamSchema schema, Object... values) {
        return Row.insert(schema.stream(), schema.version(), values, "p");
    }

    private Unit write(Row row) throws IOException {
        Unit unit = units.of(row, Unit::new);
        unit.count(row);
        return unit;
    }

    @Test
    void eachStreamKeepsOneUnitUntilTheCheckpointFinishesThemAll() throws IOException {
        Unit first = write(row(ORDERS, 3L, "a"));
        write(row(REFUNDS, 1L));
        assertThat(write(row(ORDERS, 7L, "b"))).isSameAs(first);
        write(row(ORDERS, 5L, "c"));

        assertThat(units.finishAll()).containsExactly("orders#0:3:7", "refunds#1:1:null");
        assertThat(log)
                .containsExactly(
                        "open orders#0", "open refunds#1", "finish orders#0", "finish refunds#1");
        assertThat(units.finishAll()).as("nothing open, nothing finished since").isEmpty();
        assertThat(write(row(ORDERS, 1L, "d"))).as("the next checkpoint's").isNotSameAs(first);
    }

    @Test
    void aNewSchemaVersionFinishesTheStreamsUnitAndOpensTheNext() throws IOException {
        write(row(ORDERS, 9L, "a"));
        Unit second = write(row(ORDERS_V2, 2L, "b", "x"));

        assertThat(second.schema()).isEqualTo(ORDERS_V2);
        assertThat(log).containsExactly("open orders#0", "finish orders#0", "open orders#1");
        assertThat(units.finishAll()).containsExactly("orders#0:1:9", "orders#1:1:2");
    }

    @Test
    void aWritersOwnRuleAndAFullUnitRollIt() throws IOException {
        Row row = row(ORDERS, 1L, "a");
        Unit first = units.of(row, unit -> false, Unit::new);
        Unit second = units.of(row, unit -> true, Unit::new);
        units.finish("orders");
        Unit third = units.of(row, Unit::new);

        assertThat(List.of(first.n, second.n, third.n)).containsExactly(0, 1, 2);
        assertThat(units.finishAll())
                .containsExactly("orders#0:0:null", "orders#1:0:null", "orders#2:0:null");
    }

    @Test
    void abandonedUnitsAreClosedButNeverFinished() throws IOException {
        write(row(ORDERS, 1L, "a"));
        write(row(REFUNDS, 1L));
        units.abandon(unit -> log.add("close " + unit));

        assertThat(log)
                .containsExactly(
                        "open orders#0", "open refunds#1", "close orders#0", "close refunds#1");
        assertThat(units.finishAll()).isEmpty();
    }

    @Test
    void aRowOfASchemaNeverSentFailsBeforeAnyUnitOpens() {
        StreamSchema unknown =
                new StreamSchema("orders", List.of(Column.of("other", DataType.STRING)), List.of());
        assertThatThrownBy(() -> write(row(unknown, "x")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("arrived before its schema version");
        assertThat(log).isEmpty();
    }

    @Test
    void aUnitKnowsItsCursorsType() {
        assertThat(new Unit(ORDERS).cursorType()).isEqualTo("INT64");
        assertThat(new Unit(REFUNDS).cursorType()).isNull();
    }
}
