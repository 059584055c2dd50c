package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.TypeChange;
import org.junit.jupiter.api.Test;

/** The schema evolution policy, case by case. */
class PostgresDialectTest {
    private final PostgresDialect dialect = new PostgresDialect();

    private String outcome(String existing, DataType wanted) {
        TypeChange change = dialect.change(existing, wanted);
        return switch (change.action()) {
            case KEEP -> "keep";
            case WIDEN -> "widen to " + change.type();
            case REFUSE -> "refuse";
        };
    }

    @Test
    void theSameTypeIsKept() {
        for (DataType.Kind kind : DataType.Kind.values()) {
            DataType type =
                    kind == DataType.Kind.DECIMAL ? DataType.decimal(12, 2) : DataType.of(kind);
            assertThat(outcome(dialect.columnType(type), type)).as(kind.name()).isEqualTo("keep");
        }
        assertThat(outcome("timestamp(3) with time zone", DataType.TIMESTAMP_TZ)).isEqualTo("keep");
    }

    @Test
    void integersWidenAlongTheirLadder() {
        assertThat(outcome("smallint", DataType.INT32)).isEqualTo("widen to integer");
        assertThat(outcome("integer", DataType.INT64)).isEqualTo("widen to bigint");
        assertThat(outcome("bigint", DataType.INT32)).isEqualTo("keep");
        assertThat(outcome("integer", DataType.decimal(12, 2))).isEqualTo("widen to numeric(12,2)");
        assertThat(outcome("bigint", DataType.decimal(10, 2))).isEqualTo("widen to numeric(21,2)");
        assertThat(outcome("bigint", DataType.decimal(0, 0))).isEqualTo("widen to numeric");
        assertThat(outcome("integer", DataType.FLOAT64)).isEqualTo("widen to double precision");
        assertThat(outcome("bigint", DataType.FLOAT64)).isEqualTo("refuse");
    }

    @Test
    void numericsWidenToHoldBothSidesOfThePoint() {
        assertThat(outcome("numeric(12,2)", DataType.decimal(10, 2))).isEqualTo("keep");
        assertThat(outcome("numeric(12,2)", DataType.decimal(12, 4)))
                .isEqualTo("widen to numeric(14,4)");
        assertThat(outcome("numeric(12,2)", DataType.INT64)).isEqualTo("widen to numeric(21,2)");
        assertThat(outcome("numeric", DataType.INT64)).isEqualTo("keep");
        assertThat(outcome("numeric(12,2)", DataType.decimal(0, 0))).isEqualTo("widen to numeric");
        assertThat(outcome("numeric(12,2)", DataType.FLOAT64)).isEqualTo("refuse");
    }

    @Test
    void textTakesAnythingAndOtherFamiliesAreRefused() {
        assertThat(outcome("text", DataType.INT64)).isEqualTo("keep");
        assertThat(outcome("character varying(20)", DataType.STRING)).isEqualTo("widen to text");
        assertThat(outcome("character varying(20)", DataType.INT32)).isEqualTo("refuse");
        assertThat(outcome("real", DataType.FLOAT64)).isEqualTo("widen to double precision");
        assertThat(outcome("boolean", DataType.INT32)).isEqualTo("refuse");
        assertThat(outcome("integer", DataType.STRING)).isEqualTo("refuse");
        assertThat(outcome("timestamp without time zone", DataType.TIMESTAMP_TZ))
                .isEqualTo("refuse");
        assertThat(outcome("json", DataType.JSON)).isEqualTo("keep");
    }
}
