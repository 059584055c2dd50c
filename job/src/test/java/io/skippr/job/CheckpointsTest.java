package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a continuous run resumes from, and what a {@code --once} run moves aside: a --once run that
 * committed supersedes the checkpoints and savepoints of earlier continuous runs (they hold older
 * source positions; on main the next continuous run resumed from one and loaded the --once run's
 * rows again).
 */
class CheckpointsTest {
    @TempDir Path state;

    private static org.apache.flink.core.fs.Path flink(Path dir) {
        return new org.apache.flink.core.fs.Path(dir.toUri());
    }

    private static Path restorable(Path folder, long modifiedMillis) throws Exception {
        Files.createDirectories(folder);
        Path metadata = Files.writeString(folder.resolve("_metadata"), "metadata");
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(modifiedMillis));
        return folder;
    }

    @Test
    void aOnceRunMovesRetainedCheckpointsAsideSoNoContinuousRunResumesFromThem() throws Exception {
        Path checkpoints = StateDirs.checkpoints(state);
        Path chk = restorable(checkpoints.resolve("0a1b/chk-7"), 1_000_000);
        assertThat(Checkpoints.latest(checkpoints)).contains(chk);

        List<String> aside = Checkpoints.supersede(List.of(flink(checkpoints)), state);

        assertThat(Checkpoints.latest(checkpoints)).isEmpty();
        assertThat(aside).hasSize(1);
        assertThat(Path.of(aside.get(0)).getParent()).isEqualTo(state.resolve("superseded"));
        assertThat(Path.of(aside.get(0)).resolve("0a1b/chk-7/_metadata")).hasContent("metadata");
        assertThat(Checkpoints.supersede(List.of(flink(checkpoints)), state))
                .as("nothing left to move")
                .isEmpty();
    }

    /**
     * A run stopped with a savepoint drops its own checkpoints while an older job's remain: the
     * newer savepoint is where the next run resumes (before, the older checkpoint was, and the rows
     * committed since were loaded again).
     */
    @Test
    void theNewestOfCheckpointsAndSavepointsIsWhereARunResumes() throws Exception {
        Path checkpoints = state.resolve("checkpoints");
        Path savepoints = state.resolve("savepoints");
        restorable(checkpoints.resolve("job1/chk-3"), 1_000_000);
        Path savepoint = restorable(savepoints.resolve("savepoint-0a1b2c-9f"), 2_000_000);

        assertThat(
                        Checkpoints.newest(List.of(flink(checkpoints), flink(savepoints)))
                                .map(p -> Path.of(p.toUri())))
                .contains(savepoint);
    }

    /**
     * A folder the Flink configuration names (here a local one written without a scheme) is renamed
     * beside itself, its metadata files first; before, a path without a scheme failed the --once
     * run after its commit ("Missing scheme").
     */
    @Test
    void aConfiguredFolderIsRenamedBesideItselfWithItsMetadataMovedFirst() throws Exception {
        Path shared = Files.createDirectories(state.resolve("shared/checkpoints/p"));
        restorable(shared.resolve("job1/chk-3"), 1_000_000);
        var folder = new org.apache.flink.core.fs.Path(shared.toString()); // no scheme

        List<String> aside = Checkpoints.supersede(List.of(folder), state.resolve("p"));

        assertThat(aside).hasSize(1);
        assertThat(aside.get(0)).contains("p.superseded-");
        assertThat(shared).doesNotExist();
        Path moved = Path.of(new org.apache.flink.core.fs.Path(aside.get(0)).toUri().getPath());
        assertThat(moved.resolve("job1/chk-3/_metadata.superseded")).hasContent("metadata");
        assertThat(Checkpoints.newest(List.of(flink(moved)))).isEmpty();
    }
}
