package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.ReadPositions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sink compacts a position through whichever source on the job's class path knows its entries
 * ({@link ReadPositions#compact}), as the Iceberg sinks do with the union of continuous commits.
 */
class CompactedPositionsTest {
    @Test
    void eachSourceCompactsItsOwnEntriesAndNoOtherOnes() {
        String windows =
                ReadPositions.of(
                        List.of(
                                "{\"upTo\":\"10\",\"keyFrom\":null,\"keyTo\":null,\"xids\":[]}",
                                chained("10", "20"),
                                chained("20", "30")));
        assertThat(ReadPositions.compact(windows))
                .isEqualTo(
                        ReadPositions.of(
                                List.of(
                                        "{\"upTo\":\"30\",\"keyFrom\":null,\"keyTo\":null,"
                                                + "\"xids\":[]}")));

        String files =
                ReadPositions.of(
                        List.of(file(100, 10), file(200, 20).replace("}", ",\"fromRecords\":10}")));
        assertThat(ReadPositions.compact(files))
                .isEqualTo(ReadPositions.of(List.of(file(200, 20))));

        String unknown = ReadPositions.of(List.of("{\"lsn\":\"0/16B3748\"}"));
        assertThat(ReadPositions.compact(unknown)).isEqualTo(unknown);
        assertThat(ReadPositions.compact("42"))
                .as("a cursor value of an earlier version")
                .isEqualTo("42");
    }

    private static String chained(String after, String upTo) {
        return "{\"upTo\":\""
                + upTo
                + "\",\"keyFrom\":null,\"keyTo\":null,\"xids\":[],\"after\":\""
                + after
                + "\",\"includeNull\":false}";
    }

    private static String file(long offset, long records) {
        return "{\"file\":\"/in/a.jsonl\",\"offset\":"
                + offset
                + ",\"records\":"
                + records
                + ",\"headBytes\":4,\"head\":\"abcd\",\"generation\":0}";
    }
}
