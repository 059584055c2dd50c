package io.skippr.core.io;

import io.skippr.core.errors.Causes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Tells a full disk from other I/O failures, and says how much room a folder's disk has left. */
public final class DiskSpace {
    /** What the operating system says when a write finds no room (Linux, macOS, Windows). */
    private static final List<String> FULL =
            List.of(
                    "No space left on device",
                    "Disk quota exceeded",
                    "There is not enough space on the disk");

    /** Below this many free bytes a folder's disk counts as full, whatever it is needed for. */
    private static final long NEARLY_FULL = 1024 * 1024;

    private DiskSpace() {}

    /** Whether a failure, or any of its causes, is a write that found the disk full. */
    public static boolean isFull(Throwable failure) {
        return Causes.of(failure)
                .map(Throwable::getMessage)
                .anyMatch(m -> m != null && FULL.stream().anyMatch(m::contains));
    }

    /**
     * Whether the disk holding {@code path} (or its nearest existing parent) has less room than
     * {@code needed} bytes, or than 1 MiB.
     */
    public static boolean isFull(Path path, long needed) {
        long[] room = room(path);
        return room != null && room[0] < Math.max(NEARLY_FULL, needed);
    }

    /** "12.0 KiB free of 16.0 MiB" for the disk holding {@code path}, if it can be told. */
    public static Optional<String> free(Path path) {
        long[] room = room(path);
        return room == null
                ? Optional.empty()
                : Optional.of(bytes(room[0]) + " free of " + bytes(room[1]));
    }

    /** Usable and total bytes of the disk holding {@code path}; null when it cannot be told. */
    private static long[] room(Path path) {
        Path existing = path.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return null;
        }
        try {
            java.nio.file.FileStore store = Files.getFileStore(existing);
            return new long[] {store.getUsableSpace(), store.getTotalSpace()};
        } catch (IOException e) {
            return null;
        }
    }

    /** "1.5 KiB", "16.0 MiB": a size as people write it. */
    public static String bytes(long n) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        double value = n;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0
                ? n + " bytes"
                : String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
