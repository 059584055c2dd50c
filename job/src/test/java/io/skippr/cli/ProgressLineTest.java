package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.ReplicationLagGauges.Lag;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The CDC lag on the live progress line: bytes as MiB, seconds, {@code ?} for a value not read. */
class ProgressLineTest {
    @Test
    void theLagOfACdcSourceFollowsTheRate() {
        StringWriter err = new StringWriter();
        ProgressLine line = new ProgressLine(new PrintWriter(err), true);

        line.update(
                Map.of("items", Map.of("read", 10L, "written", 7L)),
                Optional.of(new Lag(13_107_200, 3)));

        assertThat(err.toString()).contains(" rec/s  lag 12.5 MiB 3 s  [items 7]");
    }

    @Test
    void aLagNotReadYetIsAQuestionMarkAndNoGaugesNoLag() {
        assertThat(ProgressLine.lag(new Lag(-1, -1))).isEqualTo("  lag ? ?");
        assertThat(ProgressLine.lag(new Lag(0, 0))).isEqualTo("  lag 0.0 MiB 0 s");
        StringWriter err = new StringWriter();
        new ProgressLine(new PrintWriter(err), true)
                .update(Map.of("items", Map.of("read", 1L)), Optional.empty());
        assertThat(err.toString()).doesNotContain("lag").contains(" rec/s  [items 0]");
    }
}
