package io.skippr.job.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FailedAtTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-12-02T16:40:05.123456Z",
                "2026-12-02T16:40:05.123456+00:00",
                "2026-12-02T17:40:05.123456+01:00",
                "2026-12-02 16:40:05.123456",
                "2026-12-02 16:40:05.123456 UTC",
                "2026-12-02T16:40:05.123456",
                "1796229605.123456"
            })
    void everyTextADriverGivesIsTheSameInstant(String text) {
        assertThat(FailedAt.parse(text)).isEqualTo(Instant.parse("2026-12-02T16:40:05.123456Z"));
    }
}
