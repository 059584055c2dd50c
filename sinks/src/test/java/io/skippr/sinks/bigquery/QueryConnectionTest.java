package io.skippr.sinks.bigquery;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.bigquery.TableId;
import org.junit.jupiter.api.Test;

class QueryConnectionTest {
    private final BigQueryDialect dialect = new BigQueryDialect();

    @Test
    void aCommitsDropOfItsStagingTableRunsAsTablesDelete() {
        assertThat(
                        QueryConnection.droppedTable(
                                dialect.dropTable(dialect.qualified("ds", "_skippr_stage_ab")),
                                "p"))
                .isEqualTo(TableId.of("p", "ds", "_skippr_stage_ab"));
    }

    @Test
    void quotedNamesComeBackAsTheyWere() {
        assertThat(
                        QueryConnection.droppedTable(
                                dialect.dropTable(dialect.qualified("d`s", "t\\a`b")), "p"))
                .isEqualTo(TableId.of("p", "d`s", "t\\a`b"));
    }

    @Test
    void anyOtherStatementRunsAsAQueryJob() {
        for (String sql :
                new String[] {
                    "DROP TABLE `ds`.`t`",
                    "DROP TABLE IF EXISTS `t`",
                    "DROP TABLE IF EXISTS `p`.`ds`.`t`",
                    "DROP TABLE IF EXISTS `ds`.`t`; DROP TABLE IF EXISTS `ds`.`u`",
                    "DROP TABLE IF EXISTS `ds`.`t",
                    "drop table if exists `ds`.`t` ",
                    "SELECT 1"
                }) {
            assertThat(QueryConnection.droppedTable(sql, "p")).as(sql).isNull();
        }
    }
}
