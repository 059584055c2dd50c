package io.skippr.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskSpaceTest {
    @TempDir Path dir;

    @Test
    void aFullDiskIsFoundAnywhereInTheCauseChain() {
        Exception wrapped =
                new RuntimeException(
                        "job failed",
                        new UncheckedIOException(new IOException("No space left on device")));
        assertThat(DiskSpace.isFull(wrapped)).isTrue();
        assertThat(DiskSpace.isFull(new IOException("Disk quota exceeded"))).isTrue();
        assertThat(DiskSpace.isFull(new IOException("Connection refused"))).isFalse();
        assertThat(DiskSpace.isFull(new IOException((String) null))).isFalse();
    }

    @Test
    void sizesReadAsPeopleWriteThem() {
        assertThat(DiskSpace.bytes(0)).isEqualTo("0 bytes");
        assertThat(DiskSpace.bytes(1023)).isEqualTo("1023 bytes");
        assertThat(DiskSpace.bytes(16 * 1024 * 1024)).isEqualTo("16.0 MiB");
        assertThat(DiskSpace.bytes(1536)).isEqualTo("1.5 KiB");
    }

    @Test
    void roomIsToldForAFolderThatDoesNotExistYet() {
        assertThat(DiskSpace.free(dir.resolve("not/yet")))
                .hasValueSatisfying(
                        room -> assertThat(room).matches("\\S+ \\S+ free of \\S+ \\S+"));
        assertThat(DiskSpace.isFull(dir, Long.MAX_VALUE)).isTrue();
        assertThat(DiskSpace.isFull(dir, 0)).isFalse();
    }
}
