package io.skippr.sinks.sftp;

import io.skippr.config.Secret;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.TemporaryNamePublish;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHFsyncExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHPosixRenameExtension;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * A folder on an SFTP server. Staged files are uploaded to {@code <path>/.skippr-staging/<uuid>}
 * and published under their key without ever replacing a file there ({@link #publish}), so readers
 * never see a half-written file. Small files ({@link #put}) replace atomically (OpenSSH's {@code
 * posix-rename} extension where the server offers it). Staged and small files are fsynced where the
 * server offers {@code fsync@openssh.com}.
 *
 * <p>The host key is checked against {@code known_hosts_file} (default {@code ~/.ssh/known_hosts}):
 * a changed key is refused, an unknown host is trusted on first use and its key recorded there (see
 * {@link SftpConnection}).
 */
public final class SftpFileStore implements FileStore {
    private static final long serialVersionUID = 1L;

    private final Settings settings;
    private final String root;
    private transient SftpConnection connection;

    /**
     * How to reach the server. {@code password} and {@code privateKeyFile} may both be set (both
     * are offered); at least one is. {@code knownHostsFile} null means {@code ~/.ssh/known_hosts}.
     */
    public record Settings(
            String host,
            int port,
            String user,
            Secret password,
            String privateKey,
            Secret privateKeyPassphrase,
            String knownHosts,
            String path)
            implements Serializable {
        public Settings {
            if (host == null || host.isBlank() || user == null || user.isBlank()) {
                throw new IllegalArgumentException("SFTP needs a host and a user");
            }
            if (path == null || path.isBlank()) {
                throw new IllegalArgumentException("SFTP needs the remote folder 'path'");
            }
            if (password == null && privateKey == null) {
                throw new IllegalArgumentException(
                        "SFTP user '"
                                + user
                                + "' at "
                                + host
                                + " needs a password or a private_key_file");
            }
            if (knownHosts == null) {
                knownHosts =
                        Path.of(System.getProperty("user.home"), ".ssh", "known_hosts").toString();
            }
        }

        Path privateKeyFile() {
            return privateKey == null ? null : Path.of(privateKey);
        }

        Path knownHostsFile() {
            return Path.of(knownHosts);
        }

        String credentialsUsed() {
            if (password != null && privateKey != null) {
                return "its password or the key in " + privateKey;
            }
            return password != null ? "its password" : "the key in " + privateKey;
        }

        /** No secrets: only where and who. */
        @Override
        public String toString() {
            return "sftp://" + user + "@" + host + ":" + port + "/" + path;
        }
    }

    public SftpFileStore(Settings settings) {
        this.settings = settings;
        String p = settings.path().trim();
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        this.root = p.equals("/") ? "" : p;
    }

    @Override
    public String describe() {
        return "sftp://"
                + settings.user()
                + "@"
                + settings.host()
                + ":"
                + settings.port()
                + (root.startsWith("/") ? root : "/" + root);
    }

    /** The remote path of a key. */
    String remote(String key) {
        return root + "/" + key;
    }

    String staging() {
        return remote(STAGING);
    }

    private synchronized SftpClient sftp() throws IOException {
        if (connection == null || !connection.isOpen()) {
            if (connection != null) {
                connection.close();
            }
            connection = SftpConnection.open(settings);
        }
        return connection.sftp();
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        String folder = staging() + "/" + FileStore.owner(key);
        String temp = folder + "/" + UUID.randomUUID();
        mkdirs(folder);
        upload(local, temp);
        Files.deleteIfExists(local);
        return new Staged(key, temp);
    }

    /**
     * Gives the staged file its final name, never replacing a file under that name: by {@code
     * hardlink@openssh.com} where the server offers it (OpenSSH, Apache MINA SSHD), which fails
     * when the name exists, then removing the staged name; else by a plain SFTP rename, which fails
     * when the target exists on OpenSSH (it links, too) and on MINA (which checks, then renames, in
     * the server), after a look for servers that would replace. A file already under the name is
     * this staged file (a replayed commit, stopped between link and removal) when its bytes are the
     * staged file's: the answer is then false. Any other file fails the publish and is left as it
     * is.
     */
    @Override
    public boolean publish(Staged staged) throws IOException {
        return new Naming().publish(staged, remote(staged.key()));
    }

    /** Names staged files by a link or a create-only rename (see {@link #publish}). */
    private final class Naming extends TemporaryNamePublish {
        Naming() {
            super(describe());
        }

        @Override
        protected boolean isStaged(String temp) throws IOException {
            return isFile(temp);
        }

        @Override
        protected boolean nameCreateOnly(String temp, String target) throws IOException {
            mkdirs(parent(target));
            SftpClient sftp = sftp();
            OpenSshHardLink link = OpenSshHardLink.of(sftp);
            if (link != null) {
                boolean linked = false;
                try {
                    link.link(temp, target);
                    linked = true;
                } catch (SftpException e) {
                    if (isFile(target)) {
                        return false; // the server refused the name because a file has it
                    }
                    // no hard links on the server's file system (FAT, some shares): rename below
                }
                if (linked) {
                    removeIfExists(temp);
                    return true;
                }
            }
            if (isFile(target)) {
                return false;
            }
            try {
                sftp.rename(temp, target); // no overwrite flag: create-only (see publish)
                return true;
            } catch (SftpException e) {
                if (isFile(target)) {
                    return false;
                }
                throw failed("rename " + temp + " to " + target, e);
            }
        }

        @Override
        protected Occupant occupant(String temp, String target, boolean staged) throws IOException {
            if (!isFile(target)) {
                return Occupant.NOTHING;
            }
            return !staged || sameBytes(temp, target) ? Occupant.STAGED_FILE : Occupant.OTHER_FILE;
        }

        @Override
        protected void removeStaged(String temp) throws IOException {
            removeIfExists(temp);
        }

        @Override
        protected String shown(String target) {
            return target + " in " + describe();
        }
    }

    /** Whether two remote files hold the same bytes. */
    private boolean sameBytes(String a, String b) throws IOException {
        SftpClient sftp = sftp();
        if (sftp.stat(a).getSize() != sftp.stat(b).getSize()) {
            return false;
        }
        try (InputStream x = sftp.read(a);
                InputStream y = sftp.read(b)) {
            byte[] bx = new byte[64 * 1024];
            byte[] by = new byte[64 * 1024];
            while (true) {
                int n = x.readNBytes(bx, 0, bx.length);
                int m = y.readNBytes(by, 0, by.length);
                if (n != m || !java.util.Arrays.equals(bx, 0, n, by, 0, m)) {
                    return false;
                }
                if (n < bx.length) {
                    return true;
                }
            }
        }
    }

    @Override
    public void discard(Staged staged) throws IOException {
        removeIfExists(staged.token());
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        removeTree(staging() + "/" + owner);
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        String target = remote(key);
        String dir = parent(target);
        mkdirs(dir);
        String temp = dir + "/." + name(target) + "." + UUID.randomUUID();
        try {
            try (OutputStream out = sftp().write(temp)) {
                out.write(bytes);
            }
            fsync(temp);
            rename(temp, target);
        } catch (IOException e) {
            removeIfExists(temp);
            throw failed("write " + target, e);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        String path = remote(key);
        try (InputStream in = sftp().read(path)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw failed("read " + path, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        return isFile(remote(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        int slash = prefix.lastIndexOf('/');
        String dir = slash < 0 ? "" : prefix.substring(0, slash + 1);
        List<String> keys = new ArrayList<>();
        walk(dir, keys);
        return keys.stream().filter(k -> k.startsWith(prefix)).sorted().toList();
    }

    /** Adds every file under the folder of relative path {@code dir} ("" or ending in "/"). */
    private void walk(String dir, List<String> keys) throws IOException {
        String path = dir.isEmpty() ? (root.isEmpty() ? "/" : root) : remote(dir);
        for (SftpClient.DirEntry entry : entries(path)) {
            String name = entry.getFilename();
            if (name.startsWith(".")) {
                continue; // ".", "..", staging and temporary files
            }
            if (entry.getAttributes().isDirectory()) {
                walk(dir + name + "/", keys);
            } else if (entry.getAttributes().isRegularFile()) {
                keys.add(dir + name);
            }
        }
    }

    /** The entries of a remote folder, "." and ".." included; none if it does not exist. */
    private List<SftpClient.DirEntry> entries(String path) throws IOException {
        SftpClient sftp = sftp();
        List<SftpClient.DirEntry> all = new ArrayList<>();
        try (SftpClient.CloseableHandle dir = sftp.openDir(path)) {
            for (List<SftpClient.DirEntry> batch = sftp.readDir(dir);
                    batch != null;
                    batch = sftp.readDir(dir)) {
                all.addAll(batch);
            }
        } catch (SftpException e) {
            if (e.getStatus() != SftpConstants.SSH_FX_NO_SUCH_FILE) {
                throw failed("list " + path, e);
            }
        }
        return all;
    }

    @Override
    public void delete(String key) throws IOException {
        removeIfExists(remote(key));
    }

    @Override
    public void download(String key, Path local) throws IOException {
        String path = remote(key);
        try (InputStream in = sftp().read(path)) {
            Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw failed("download " + path, e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (connection != null) {
            try {
                connection.close();
            } finally {
                connection = null;
            }
        }
    }

    private void upload(Path local, String temp) throws IOException {
        try {
            try (OutputStream out = sftp().write(temp)) {
                Files.copy(local, out);
            }
            fsync(temp);
        } catch (IOException e) {
            removeIfExists(temp);
            throw failed("upload " + local + " to " + temp, e);
        }
    }

    /** Makes an uploaded file durable where the server offers fsync@openssh.com. */
    private void fsync(String path) throws IOException {
        SftpClient sftp = sftp();
        OpenSSHFsyncExtension fsync = sftp.getExtension(OpenSSHFsyncExtension.class);
        if (fsync != null && fsync.isSupported()) {
            try (SftpClient.CloseableHandle handle =
                    sftp.open(path, EnumSet.of(SftpClient.OpenMode.Write))) {
                fsync.fsync(handle);
            }
        }
    }

    /** Renames, replacing the target: atomically with posix-rename, else remove then rename. */
    private void rename(String from, String to) throws IOException {
        SftpClient sftp = sftp();
        OpenSSHPosixRenameExtension posix = sftp.getExtension(OpenSSHPosixRenameExtension.class);
        if (posix != null && posix.isSupported()) {
            posix.posixRename(from, to);
            return;
        }
        if (sftp.getVersion() >= SftpConstants.SFTP_V5) {
            sftp.rename(from, to, SftpClient.CopyMode.Atomic, SftpClient.CopyMode.Overwrite);
            return;
        }
        removeIfExists(to);
        sftp.rename(from, to);
    }

    private boolean isFile(String path) throws IOException {
        try {
            return sftp().stat(path).isRegularFile();
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
            }
            throw failed("check " + path, e);
        }
    }

    private void mkdirs(String dir) throws IOException {
        if (dir.isEmpty() || isDirectory(dir)) {
            return;
        }
        String parent = parent(dir);
        if (!parent.equals(dir)) {
            mkdirs(parent);
        }
        try {
            sftp().mkdir(dir);
        } catch (SftpException e) {
            if (!isDirectory(dir)) { // not made by a concurrent writer either
                throw failed("create folder " + dir, e);
            }
        }
    }

    private boolean isDirectory(String path) throws IOException {
        try {
            return sftp().stat(path).isDirectory();
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
            }
            throw failed("check " + path, e);
        }
    }

    private void removeIfExists(String path) throws IOException {
        try {
            sftp().remove(path);
        } catch (SftpException e) {
            if (e.getStatus() != SftpConstants.SSH_FX_NO_SUCH_FILE) {
                throw failed("delete " + path, e);
            }
        }
    }

    private void removeTree(String dir) throws IOException {
        List<SftpClient.DirEntry> entries = entries(dir);
        if (entries.isEmpty()) {
            return; // not even "." and "..": the folder does not exist
        }
        for (SftpClient.DirEntry entry : entries) {
            String name = entry.getFilename();
            if (name.equals(".") || name.equals("..")) {
                continue;
            }
            if (entry.getAttributes().isDirectory()) {
                removeTree(dir + "/" + name);
            } else {
                removeIfExists(dir + "/" + name);
            }
        }
        try {
            sftp().rmdir(dir);
        } catch (SftpException e) {
            if (e.getStatus() != SftpConstants.SSH_FX_NO_SUCH_FILE) {
                throw failed("delete folder " + dir, e);
            }
        }
    }

    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? (slash == 0 ? "/" : "") : path.substring(0, slash);
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** An error naming the server, the user and the path; NoSuchFileException stays one. */
    private IOException failed(String what, IOException e) {
        if (e.getMessage() != null && e.getMessage().contains(settings.host() + ":")) {
            return e; // already says where
        }
        String message =
                "SFTP "
                        + settings.user()
                        + "@"
                        + settings.host()
                        + ":"
                        + settings.port()
                        + ": cannot "
                        + what
                        + ": "
                        + explain(e);
        if (e instanceof SftpException sftp
                && sftp.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
            NoSuchFileException missing = new NoSuchFileException(message);
            missing.initCause(e);
            return missing;
        }
        return new IOException(message, e);
    }

    private static String explain(IOException e) {
        if (e instanceof SftpException sftp) {
            return switch (sftp.getStatus()) {
                case SftpConstants.SSH_FX_NO_SUCH_FILE -> "no such file";
                case SftpConstants.SSH_FX_PERMISSION_DENIED -> "permission denied";
                default ->
                        SftpConstants.getStatusName(sftp.getStatus())
                                + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
            };
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
