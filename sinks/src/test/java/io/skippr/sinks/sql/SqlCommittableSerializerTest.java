package io.skippr.sinks.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlCommittableSerializerTest {
    private final SqlCommittableSerializer serializer = new SqlCommittableSerializer();

    @Test
    void committablesRoundTripWithTheirSchema() throws IOException {
        StreamSchema schema =
                new StreamSchema(
                        "ünïcödé \"orders\"",
                        List.of(
                                Column.of("id", DataType.INT64),
                                new Column("amount", DataType.decimal(12, 2), false),
                                Column.of("c".repeat(70_000), DataType.STRING)),
                        List.of("id"),
                        "amount");
        SqlCommittable rows =
                new SqlCommittable(
                        SqlCommittable.Kind.ROWS,
                        3,
                        1,
                        2,
                        40,
                        5,
                        7,
                        schema.stream(),
                        schema,
                        "_skippr_stage_x",
                        99,
                        "12.50",
                        "DECIMAL",
                        "-3.25",
                        -0x7edcba9876543210L);
        SqlCommittable end = SqlCommittable.end(3, 1, 2, 0, 0, Map.of());

        for (SqlCommittable c : List.of(rows, end)) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(c)))
                    .isEqualTo(c);
        }
        assertThat(rows.checkpoint()).isEqualTo(46);
        assertThat(rows.deleteRowColumn()).isEqualTo("_skippr_delete_row");

        SqlCommittable earlier = serializer.deserialize(2, serializer.serialize(rows));
        assertThat(earlier.stagedBeforeV3())
                .as("a version 2 committable's staging calls the delete flag _skippr_deleted")
                .isTrue();
        assertThat(earlier.deleteRowColumn()).isEqualTo("_skippr_deleted");
        assertThat(earlier.staging()).isEqualTo(rows.staging());
        assertThat(earlier.checksum()).isEqualTo(rows.checksum());
    }

    @Test
    void aSchemaRoundTripsThroughTheTextOfAnOwedStagingTablesComment() throws IOException {
        StreamSchema schema =
                new StreamSchema(
                        "refunds",
                        List.of(
                                Column.of("id", DataType.INT64),
                                new Column("amount", DataType.decimal(12, 2), false)),
                        List.of("id"),
                        "id");
        String comment =
                SqlStagingWriter.owedComment(
                        "{\"skippr\":\"staging\",\"pipeline\":\"p\",\"sink\":\"s\",\"run\":1,"
                                + "\"subtask\":0,\"epoch\":0,\"seq\":3,\"stream\":\"refunds\"}",
                        schema);
        assertThat(SqlStagingWriter.owedSchema(comment)).isEqualTo(schema);
        assertThat(SqlStagingWriter.meta(comment))
                .isEqualTo(new SqlStagingWriter.StagingMeta("p", "s", 1, 0, 0, 3));
        assertThat(
                        SqlStagingWriter.owedSchema(
                                "{\"skippr\":\"staging\",\"pipeline\":\"p\",\"sink\":\"s\"}"))
                .as("a staging table that is not owed")
                .isNull();
        assertThatThrownBy(() -> SqlCommittableSerializer.schemaOf("not base64!"))
                .isInstanceOf(IOException.class)
                .hasMessage("not a schema: not base64!");
    }

    @Test
    void anUnknownVersionIsAClearError() {
        assertThatThrownBy(() -> serializer.deserialize(9, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "cannot read a SQL sink committable of version 9; this Skippr reads"
                                + " version 3 (and 1, 2)");
    }
}
