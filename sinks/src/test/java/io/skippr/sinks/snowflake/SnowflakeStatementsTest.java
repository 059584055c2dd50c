package io.skippr.sinks.snowflake;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statements and checks of the Snowflake sink that need no server. */
class SnowflakeStatementsTest {
    @Test
    void theCopyLoadsExactlyTheNamedFilesWhateverTheLoadHistorySays() {
        String copy =
                new SnowflakeCopy("@\"it's\".\"back\\slash\"")
                        .statement("\"s\".\"t\"", List.of("a/part-00000.parquet", "b'.parquet"));
        assertThat(copy)
                .isEqualTo(
                        "COPY INTO \"s\".\"t\" FROM '@\"it''s\".\"back\\\\slash\"/' FILES ="
                                + " ('a/part-00000.parquet', 'b''.parquet') FILE_FORMAT = (TYPE ="
                                + " PARQUET) MATCH_BY_COLUMN_NAME = CASE_SENSITIVE ON_ERROR ="
                                + " ABORT_STATEMENT FORCE = TRUE");
    }

    @Test
    void theCommitLockIsBesideTheMarkerTable() {
        assertThat(SnowflakeDialect.commitLock("\"my schema\".\"_skippr_commits\""))
                .isEqualTo("\"my schema\".\"_skippr_commit_lock\"");
    }

    /**
     * A decimal with more fractional digits than its column is staged rounded half up, as a NUMBER
     * cast rounds; it is a deadletter only when the rounded value has too many integer digits.
     * Before, 9.996 passed the check (one integer digit) and the writer's setScale(2) threw
     * ArithmeticException for it (and for 1.005), failing the job on every restart.
     */
    @Test
    void aDecimalIsCheckedAsItIsStagedRoundedToTheColumnsScale() {
        DataType number32 = DataType.decimal(3, 2);
        assertThat(SnowflakeRowCheck.problem(number32, new BigDecimal("1.005"))).isNull();
        assertThat(SnowflakeRowCheck.problem(number32, new BigDecimal("9.996")))
                .isEqualTo("9.996 has more integer digits than NUMBER(3,2) holds");
    }
}
