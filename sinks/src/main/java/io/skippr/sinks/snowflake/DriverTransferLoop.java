package io.skippr.sinks.snowflake;

import java.util.concurrent.TimeUnit;
import net.snowflake.client.jdbc.internal.software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import net.snowflake.client.jdbc.internal.software.amazon.awssdk.http.nio.netty.internal.SharedSdkEventLoopGroup;

/**
 * Keeps the driver's shared Netty event loop running between {@code PUT}s. For each {@code PUT} to
 * an S3 stage the driver builds an S3 client on the AWS SDK's reference-counted shared event loop
 * and closes it when the upload is done; closing the last client shuts the loop down and waits out
 * Netty's fixed 2-second quiet period, so every {@code PUT} took 2 s more than its upload. While
 * this class holds a reference, a client's close only drops its own and returns at once. The
 * reference is let go after {@link #IDLE_SECONDS} without a {@code PUT} (checked on the loop
 * itself, whose threads are daemon threads), so a finished job leaves no threads behind.
 */
final class DriverTransferLoop {
    /** Seconds without a {@code PUT} after which the loop is let go. */
    static final long IDLE_SECONDS = 60;

    private static SdkEventLoopGroup held;
    private static long lastUse;

    private DriverTransferLoop() {}

    /** Before a {@code PUT}: holds the shared loop, or keeps holding it for another idle period. */
    static synchronized void hold() {
        lastUse = System.nanoTime();
        if (held == null) {
            held = SharedSdkEventLoopGroup.get();
            releaseWhenIdle();
        }
    }

    private static void releaseWhenIdle() {
        held.eventLoopGroup().schedule(DriverTransferLoop::release, IDLE_SECONDS, TimeUnit.SECONDS);
    }

    private static synchronized void release() {
        if (System.nanoTime() - lastUse < TimeUnit.SECONDS.toNanos(IDLE_SECONDS)) {
            releaseWhenIdle();
            return;
        }
        SdkEventLoopGroup loop = held;
        held = null;
        // the reference-counting group's own shutdown: it shuts the loop down only when no client
        // holds it either (never waited for here)
        loop.eventLoopGroup().shutdownGracefully(2, 15, TimeUnit.SECONDS);
    }
}
