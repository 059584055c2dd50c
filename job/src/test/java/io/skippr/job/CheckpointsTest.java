package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --once} run that committed supersedes the checkpoints of earlier continuous runs: they
 * hold older source positions, and on main the next continuous run resumed from one and loaded the
 * --once run's rows again.
 */
class CheckpointsTest {
    @TempDir Path state;

    @Test
    void aOnceRunMovesRetainedCheckpointsAsideSoNoContinuousRunResumesFromThem() throws Exception {
        Path checkpoints = StateDirs.checkpoints(state);
        Path chk = Files.createDirectories(checkpoints.resolve("0a1b/chk-7"));
        Files.writeString(chk.resolve("_metadata"), "metadata");
        assertThat(Checkpoints.latest(checkpoints)).contains(chk);

        var folder = new org.apache.flink.core.fs.Path(checkpoints.toUri());
        Path aside = Path.of(Checkpoints.supersede(folder, state).orElseThrow());

        assertThat(Checkpoints.latest(checkpoints)).isEmpty();
        assertThat(aside.getParent()).isEqualTo(state.resolve("superseded"));
        assertThat(aside.resolve("0a1b/chk-7/_metadata")).hasContent("metadata");
        assertThat(Checkpoints.supersede(folder, state)).as("nothing left to move").isEmpty();
    }
}
