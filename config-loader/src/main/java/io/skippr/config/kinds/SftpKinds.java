package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** SFTP servers. */
public final class SftpKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("SFTP", "SFTP", Guarantee.EXACTLY_ONCE)
                        .description("Writes files to a folder on an SFTP server")
                        .fields(
                                Field.string("host", "SFTP server host name").required(),
                                Field.integer("port", "SFTP server port").defaultsTo(22),
                                Field.string("user", "User to log in as").required(),
                                Field.string("password", "Password of the user").secret(),
                                Field.path("private_key_file", "Private key file for key auth"),
                                Field.string("private_key_passphrase", "Passphrase of the key")
                                        .secret(),
                                Field.path(
                                        "known_hosts_file",
                                        "known_hosts file that holds the server's host key"
                                                + " (default: ~/.ssh/known_hosts)"),
                                Field.string("path", "Remote folder the files are written to")
                                        .required(),
                                CommonFields.FORMAT,
                                CommonFields.COMPRESSION,
                                CommonFields.ROLL_SIZE_MB,
                                CommonFields.ROLL_INTERVAL_SECONDS)
                        .build());
    }
}
