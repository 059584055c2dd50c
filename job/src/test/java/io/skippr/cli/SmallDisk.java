package io.skippr.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A real small file system for a test: a tmpfs of a few MiB mounted on a folder, which {@link
 * #fill} fills to the last byte (the kernel then answers every write with "No space left on
 * device") and {@link #free} empties again. Mounting needs root, as {@code scripts/test} runs.
 */
final class SmallDisk implements AutoCloseable {
    private final Path mountPoint;
    private final Path ballast;
    private OutputStream ballastOut;
    private ScheduledExecutorService keeper;
    private volatile Exception keeperFailure;

    SmallDisk(Path mountPoint, int megabytes) throws Exception {
        this.mountPoint = mountPoint;
        this.ballast = mountPoint.resolve("ballast");
        Files.createDirectories(mountPoint);
        run(
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "size=" + megabytes + "m,mode=0700",
                "skippr-small-disk",
                mountPoint.toString());
    }

    Path path() {
        return mountPoint;
    }

    /**
     * Fills the disk with a ballast file, and keeps it full: whatever room a failed writer frees
     * when it deletes its partial file is taken again within 5 ms, as another process filling the
     * disk would.
     */
    void fill() throws IOException {
        ballastOut = Files.newOutputStream(ballast);
        topUp();
        try (OutputStream probe = Files.newOutputStream(mountPoint.resolve("probe"))) {
            probe.write(1);
            throw new AssertionError("the disk took another byte after it was filled");
        } catch (IOException expected) {
            Files.deleteIfExists(mountPoint.resolve("probe"));
        }
        keeper = Executors.newSingleThreadScheduledExecutor();
        keeper.scheduleWithFixedDelay(this::topUpQuietly, 5, 5, TimeUnit.MILLISECONDS);
    }

    /** Stops keeping the disk full and deletes the ballast. */
    void free() throws IOException {
        if (keeper != null) {
            keeper.shutdownNow();
            try {
                keeper.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            keeper = null;
        }
        if (ballastOut != null) {
            try {
                ballastOut.close();
            } catch (IOException e) {
                // closing a file on a full disk may fail; it is deleted next
            }
            ballastOut = null;
        }
        Files.deleteIfExists(ballast);
        if (keeperFailure != null) {
            throw new AssertionError("the disk was not kept full", keeperFailure);
        }
    }

    private synchronized void topUp() throws IOException {
        byte[] block = new byte[4096];
        try {
            while (true) {
                ballastOut.write(block);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
                throw e;
            }
        }
    }

    private void topUpQuietly() {
        try {
            topUp();
        } catch (IOException | RuntimeException e) {
            keeperFailure = e; // free() reports it: the disk was not kept full
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            free();
        } finally {
            run("umount", "--lazy", mountPoint.toString());
        }
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = p.waitFor(30, TimeUnit.SECONDS);
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended || p.exitValue() != 0) {
            throw new AssertionError(
                    String.join(" ", List.of(command))
                            + " failed ("
                            + output.strip()
                            + "): the full-disk tests mount a small tmpfs and need root, as"
                            + " scripts/test runs");
        }
    }
}
