package io.skippr.sinks.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.ResultSet;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class JdbcOverHttpTest {
    private static final JdbcOverHttp JDBC = new JdbcOverHttp("the Test API", "test connection");

    @Test
    void markersOutsideQuotesBecomeNamedParameters() {
        assertThat(JdbcOverHttp.named("SELECT ?, '?', \"a?\", `b\\`, 'it\\'s ?', ?", ":p", false))
                .isEqualTo("SELECT :p1, '?', \"a?\", `b\\`, 'it\\'s ?', :p2");
        assertThat(JdbcOverHttp.named("SELECT ?, `b\\`?`, 'it\\'s ?', ?", "@p", true))
                .isEqualTo("SELECT @p1, `b\\`?`, 'it\\'s ?', @p2");
    }

    @Test
    void aResultIsReadForwardAsTextByIndexOrName() throws Exception {
        ResultSet rs =
                JDBC.rows(
                        List.of("id", "Name", "name", "ok"),
                        List.of("BIGINT", "STRING", "STRING", "BOOLEAN"),
                        List.of(
                                Arrays.asList("42", "A", "a", "true"),
                                Arrays.asList(null, null, "b", "0")));
        assertThat(rs.getMetaData().getColumnCount()).isEqualTo(4);
        assertThat(rs.getMetaData().getColumnTypeName(4)).isEqualTo("BOOLEAN");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(42L);
        assertThat(rs.getString("name")).isEqualTo("a"); // the exact name first
        assertThat(rs.getString("NAME")).isEqualTo("A"); // else the first ignoring case
        assertThat(rs.getBoolean("ok")).isTrue();
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("id")).isZero();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getBoolean(4)).isFalse();
        assertThat(rs.next()).isFalse();
        assertThatThrownBy(() -> rs.getString(1)).hasMessage("no value at row 2, column 1");
        assertThatThrownBy(rs::getFetchSize)
                .isInstanceOf(SQLFeatureNotSupportedException.class)
                .hasMessage("ResultSet.getFetchSize is not implemented over the Test API");
        assertThat(rs.toString()).isEqualTo("test connection");
    }
}
