package io.skippr.sinks.clickhouse;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives the test ClickHouse server to one test class at a time, across the JVMs the integration
 * tests run in side by side: a file lock named for the server's port, held from before the class's
 * first test to after its last. Debian's ClickHouse 18.16 crashed (a segmentation fault in {@code
 * BackgroundProcessingPoolTaskInfo::wake}) when two classes created, filled and dropped databases
 * on it at once.
 */
public final class OneClassAtATime implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(OneClassAtATime.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        String port = System.getenv().getOrDefault("SKIPPR_TEST_CH_PORT", "none");
        Path file =
                Path.of(
                        System.getProperty("java.io.tmpdir"),
                        "skippr-clickhouse-" + port + ".lock");
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.lock();
        context.getStore(NS).put("lock", lock);
        context.getStore(NS).put("channel", channel);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        FileLock lock = context.getStore(NS).remove("lock", FileLock.class);
        FileChannel channel = context.getStore(NS).remove("channel", FileChannel.class);
        if (lock != null) {
            lock.release();
        }
        if (channel != null) {
            channel.close();
        }
    }
}
