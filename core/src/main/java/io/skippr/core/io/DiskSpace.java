package io.skippr.core.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Tells a full disk from other I/O failures, and says how much room a folder's disk has left. */
public final class DiskSpace {
    /** What the operating system says when a write finds no room (Linux, macOS, Windows). */
    private static final List<String> FULL =
            List.of(
                    "No space left on device",
                    "Disk quota exceeded",
                    "There is not enough space on the disk");

    /** Below this many free bytes a folder's disk counts as full. */
    private static final long NEARLY_FULL = 1024 * 1024;

    private DiskSpace() {}

    /** Whether a failure, or any of its causes, is a write that found the disk full. */
    public static boolean isFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && FULL.stream().anyMatch(message::contains)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the disk holding {@code path} (or its nearest existing parent) has under 1 MiB free.
     */
    public static boolean isFull(Path path) {
        long[] room = room(path);
        return room != null && room[0] < NEARLY_FULL;
    }

    /** "12 KiB free of 16 MiB" for the disk holding {@code path}; "" when it cannot be told. */
    public static String free(Path path) {
        long[] room = room(path);
        return room == null ? "" : bytes(room[0]) + " free of " + bytes(room[1]);
    }

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

    static String bytes(long n) {
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
