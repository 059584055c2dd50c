package io.skippr.job;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CSV files of orders for pipeline tests: row {@code i} is {@code (i, 100 + i % 7, i.25, status,
 * timestamp)}, so counts and checksums are known in advance.
 */
public final class ShopFiles {
    private ShopFiles() {}

    /** Writes rows {@code from} to {@code to - 1}, plus {@code broken} malformed lines. */
    public static Path write(Path dir, String name, long from, long to, int broken)
            throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Path temp = dir.resolve("." + name + ".tmp");
        try (Writer out = Files.newBufferedWriter(temp)) {
            out.write("id,customer_id,amount,status,created_at\n");
            for (long i = from; i < to; i++) {
                out.write(
                        i
                                + ","
                                + (100 + i % 7)
                                + ","
                                + i
                                + ".25,"
                                + (i % 2 == 0 ? "paid" : "new")
                                + ",2026-11-01T10:00:00Z\n");
                if (broken > 0 && i == from + 3) {
                    for (int b = 0; b < broken; b++) {
                        out.write("x,\"one field too many\",1,new,2026-11-01T10:00:00Z,extra\n");
                    }
                }
            }
        }
        Files.move(temp, file); // appears whole, as a watcher would want
        return file;
    }

    /** Sum of ids {@code from..to-1}. */
    public static long idSum(long from, long to) {
        return (to - 1) * to / 2 - (from - 1) * from / 2;
    }
}
