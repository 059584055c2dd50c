package io.skippr.sinks.sftp;

import java.io.IOException;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.sftp.client.RawSftpClient;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.extensions.helpers.AbstractSftpClientExtension;

/**
 * OpenSSH's {@code hardlink@openssh.com} SFTP extension, which MINA's client does not wrap: {@code
 * link(2)} on the server, which gives a file a second name and fails, changing nothing, when that
 * name exists. OpenSSH's sftp-server and Apache MINA SSHD's (through {@code Files.createLink})
 * offer it.
 */
final class OpenSshHardLink extends AbstractSftpClientExtension {
    static final String NAME = "hardlink@openssh.com";

    private OpenSshHardLink(SftpClient client, RawSftpClient raw) {
        super(NAME, client, raw, client.getServerExtensions());
    }

    /** The extension where the server offers it, else null. */
    static OpenSshHardLink of(SftpClient client) {
        if (client instanceof RawSftpClient raw) {
            OpenSshHardLink link = new OpenSshHardLink(client, raw);
            return link.isSupported() ? link : null;
        }
        return null;
    }

    /** Gives {@code existing} the name {@code name} too; fails if {@code name} exists. */
    void link(String existing, String name) throws IOException {
        Buffer buffer = getCommandBuffer(8 + existing.length() + name.length());
        putTarget(buffer, existing);
        putTarget(buffer, name);
        checkExtendedReplyBuffer(receive(sendExtendedCommand(buffer)));
    }
}
