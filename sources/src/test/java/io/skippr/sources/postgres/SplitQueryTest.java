package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY takes no parameters: how a split query's parameters are written into its SQL. */
class SplitQueryTest {
    @Test
    void parametersBecomeLiteralsOutsideQuotedNamesAndStrings() {
        String sql =
                "SELECT \"a?b\", format('%s?', x) FROM t WHERE k > ?::int8 AND n - ? < ?"
                        + " AND s = ?::text";
        assertThat(SplitQuery.inline(sql, List.of(5L, -3L, 0L, "it's \\ ?")))
                .isEqualTo(
                        "SELECT \"a?b\", format('%s?', x) FROM t WHERE k > 5::int8 AND n - (-3) < 0"
                                + " AND s = E'it''s \\\\ ?'::text");
    }

    @Test
    void aQuotedNameWithADoubledQuoteStaysQuoted() {
        assertThat(SplitQuery.inline("SELECT \"x\"\"?\" WHERE a = ?", List.of("?")))
                .isEqualTo("SELECT \"x\"\"?\" WHERE a = E'?'");
    }

    @Test
    void placeholdersAndParametersMustPair() {
        assertThatThrownBy(() -> SplitQuery.inline("a = ? AND b = ?", List.of(1L)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("more placeholders than parameters");
        assertThatThrownBy(() -> SplitQuery.inline("a = ?", List.of(1L, 2L)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("more parameters than placeholders");
    }
}
