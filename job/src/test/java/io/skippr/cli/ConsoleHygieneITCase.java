package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd sync --once --log}, as its own process: the console shows Skippr's lines, not
 * Flink's start-up noise, which the log file keeps. On main the console showed "log.file is not
 * set", an operator name cut to 80 characters and "Skip setting up checkpointing for a job with
 * dynamic graph".
 */
class ConsoleHygieneITCase {
    @TempDir Path dir;

    @Test
    void withLogTheConsoleShowsSkipprsLinesAndTheLogFileKeepsFlinksNoise() throws Exception {
        Quickstart.copyTo(dir);
        Process sync = SkipprdProcess.syncOnce(dir, "orders", "--log");
        String console = Files.readString(dir.resolve("sync.err"));
        String log = Files.readString(dir.resolve("state/orders/logs/skipprd.log"));

        assertThat(sync.exitValue()).as(console).isZero();
        assertThat(console)
                .contains("Pipeline sync complete: 1 streams, 41 records read, 40 written")
                .contains("Discarded 1 deadletter records because no deadletter sink is configured")
                .doesNotContain("log.file")
                .doesNotContain("characters length limit")
                .doesNotContain("Skip setting up checkpointing");
        assertThat(log)
                .contains("characters length limit and was truncated")
                .contains("Skip setting up checkpointing for a job with dynamic graph")
                .doesNotContain("'log.file' is not set");
    }
}
