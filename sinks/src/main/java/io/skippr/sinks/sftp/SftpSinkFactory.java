package io.skippr.sinks.sftp;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.StoresFiles;
import java.util.Map;

/**
 * The SFTP data sink: exactly-once files in a folder on an SFTP server, logging in with a password
 * or a private key.
 */
public final class SftpSinkFactory implements SinkFactory, KeepsDeadletters, StoresFiles {
    @Override
    public String kind() {
        return "SFTP";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("SFTP");
        return FileSinks.sink(context, store(context));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context), context.pipeline());
    }

    private static SftpFileStore store(SinkContext context) {
        ResolvedSettings settings = context.settings();
        SftpFileStore.Settings sftp;
        try {
            sftp =
                    new SftpFileStore.Settings(
                            settings.requireString("host"),
                            settings.integer("port").orElse(22L).intValue(),
                            settings.requireString("user"),
                            settings.secret("password").orElse(null),
                            settings.string("private_key_file").orElse(null),
                            settings.secret("private_key_passphrase").orElse(null),
                            settings.string("known_hosts_file").orElse(null),
                            settings.requireString("path"));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml", "data_sinks." + context.entry() + ".SFTP: " + e.getMessage());
        }
        return new SftpFileStore(sftp);
    }

    @Override
    public FileStore files(SinkContext context) {
        return store(context);
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Files(
                store(context),
                FileFormat.of(context.settings().string("format").orElse("parquet")));
    }
}
