package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Table selection, naming help and type mapping, without a server. */
class PostgresCatalogTest {
    private static final List<PostgresCatalog.Relation> RELATIONS =
            List.of(
                    new PostgresCatalog.Relation("customers", 'r', false),
                    new PostgresCatalog.Relation("orders", 'p', false),
                    new PostgresCatalog.Relation("orders_2024", 'r', true),
                    new PostgresCatalog.Relation("orders_archive", 'r', false),
                    new PostgresCatalog.Relation("order_items", 'r', false),
                    new PostgresCatalog.Relation("open_orders", 'v', false),
                    new PostgresCatalog.Relation("a.b*c", 'r', false));

    @Test
    void selectsByNameAndPattern() {
        assertThat(PostgresCatalog.select("s", List.of(), RELATIONS))
                .containsExactly("a.b*c", "customers", "order_items", "orders", "orders_archive");
        assertThat(PostgresCatalog.select("s", List.of("orders*", "customers"), RELATIONS))
                .containsExactly("customers", "orders", "orders_archive");
        assertThat(PostgresCatalog.select("s", List.of("order?items", "order_items"), RELATIONS))
                .containsExactly("order_items");
        // named: a view or a partition may be read; the dot in a pattern is literal
        assertThat(PostgresCatalog.select("s", List.of("open_orders", "orders_2024"), RELATIONS))
                .containsExactly("open_orders", "orders_2024");
        assertThat(PostgresCatalog.select("s", List.of("a.b*"), RELATIONS))
                .containsExactly("a.b*c");
        assertThat(PostgresCatalog.select("s", List.of("a?b*"), RELATIONS))
                .containsExactly("a.b*c");
    }

    @Test
    void missingTablesAreNamedWithCloseNames() {
        assertThatThrownBy(() -> PostgresCatalog.select("s", List.of("ordrs", "x_*"), RELATIONS))
                .isInstanceOf(PostgresSourceException.class)
                .hasMessageContaining("Table \"ordrs\" does not exist in schema \"s\"")
                .hasMessageContaining("close names: \"orders\"")
                .hasMessageContaining("Table pattern 'x_*' matches no table in schema \"s\"");
        assertThatThrownBy(() -> PostgresCatalog.select("s", List.of("Customers"), RELATIONS))
                .hasMessageContaining("close names: \"customers\"");
        assertThatThrownBy(() -> PostgresCatalog.select("empty", List.of(), List.of()))
                .hasMessageContaining("Schema \"empty\" has no tables");
    }

    @Test
    void mapsTypes() {
        assertThat(PgTypes.map("int2", true, 'N', -1)).isEqualTo(DataType.INT16);
        assertThat(PgTypes.map("int4", true, 'N', -1)).isEqualTo(DataType.INT32);
        assertThat(PgTypes.map("int8", true, 'N', -1)).isEqualTo(DataType.INT64);
        assertThat(PgTypes.map("numeric", true, 'N', -1)).isEqualTo(DataType.decimal(0, 0));
        assertThat(PgTypes.map("numeric", true, 'N', ((10 << 16) | 2) + 4))
                .isEqualTo(DataType.decimal(10, 2));
        assertThat(PgTypes.map("numeric", true, 'N', ((5 << 16) | (-2 & 0x7ff)) + 4))
                .isEqualTo(DataType.decimal(5, -2));
        assertThat(PgTypes.map("_int4", true, 'A', -1)).isEqualTo(DataType.STRING);
        assertThat(PgTypes.map("jsonb", true, 'U', -1)).isEqualTo(DataType.JSON);
        assertThat(PgTypes.map("timestamptz", true, 'D', -1)).isEqualTo(DataType.TIMESTAMP_TZ);
        assertThat(PgTypes.map("int4", false, 'N', -1)).isEqualTo(DataType.STRING);
        assertThat(PgTypes.map("interval", true, 'T', -1)).isEqualTo(DataType.STRING);
    }

    @Test
    void quotesIdentifiers() {
        assertThat(Sql.quote("a\"b c")).isEqualTo("\"a\"\"b c\"");
        assertThat(Sql.table("s", "select")).isEqualTo("\"s\".\"select\"");
    }
}
