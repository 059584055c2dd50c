package io.skippr.sinks.files;

import static java.nio.file.FileVisitResult.CONTINUE;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A folder on a local (or mounted) file system. Staged files wait under {@code
 * <root>/.skippr-staging/} and are published by an atomic rename, so they never show half written.
 */
public final class LocalFileStore implements FileStore {
    private static final long serialVersionUID = 1L;

    private final String root;

    public LocalFileStore(Path root) {
        this.root = root.toAbsolutePath().normalize().toString();
    }

    public Path root() {
        return Path.of(root);
    }

    /** The local path of a key. */
    public Path path(String key) {
        return root().resolve(key);
    }

    Path staging() {
        return root().resolve(STAGING);
    }

    @Override
    public Path localStaging() {
        return staging();
    }

    @Override
    public String describe() {
        return root;
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        force(local); // on disk before a checkpoint can hold it: a power loss cannot cut it short
        Path temp = local.toAbsolutePath().normalize();
        if (!temp.startsWith(staging())) {
            temp = staging().resolve(FileStore.owner(key)).resolve(UUID.randomUUID().toString());
            Files.createDirectories(temp.getParent());
            Files.move(local, temp, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Staged(key, temp.toString());
    }

    @Override
    public boolean publish(Staged staged) throws IOException {
        return new Naming().publish(staged, path(staged.key()).toString());
    }

    /**
     * Names a staged file by a hard link, created only where no file is: a publish never replaces a
     * committed file (a rename would, silently). The folder is flushed afterwards, so the link and
     * the staged name's removal survive a power loss.
     */
    private final class Naming extends TemporaryNamePublish {
        Naming() {
            super(root);
        }

        @Override
        protected boolean isStaged(String temp) {
            return Files.exists(Path.of(temp));
        }

        @Override
        protected boolean nameCreateOnly(String temp, String target) throws IOException {
            Path file = Path.of(target);
            Files.createDirectories(file.getParent());
            try {
                link(file, Path.of(temp));
            } catch (FileAlreadyExistsException e) {
                return false;
            }
            Files.deleteIfExists(Path.of(temp)); // gone already where the link was a rename
            return true;
        }

        @Override
        protected Occupant occupant(String temp, String target, boolean staged) throws IOException {
            Path file = Path.of(target);
            if (!Files.exists(file)) {
                return Occupant.NOTHING;
            }
            return !staged || Files.isSameFile(Path.of(temp), file)
                    ? Occupant.STAGED_FILE
                    : Occupant.OTHER_FILE;
        }

        @Override
        protected void removeStaged(String temp) throws IOException {
            Files.deleteIfExists(Path.of(temp));
        }

        @Override
        protected void durable(String target) throws IOException {
            force(Path.of(target).getParent());
        }

        @Override
        protected String about(String target) throws IOException {
            return " (" + Files.size(Path.of(target)) + " bytes)";
        }
    }

    @Override
    public void discard(Staged staged) throws IOException {
        Files.deleteIfExists(Path.of(staged.token()));
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        deleteTree(staging().resolve(owner)); // writers stage under localStaging()/<pipeline>
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        Path target = path(key);
        Files.createDirectories(target.getParent());
        // written in the staging folder, so a listing never meets the half-written object
        Path temp = staging().resolve("put-" + UUID.randomUUID());
        Files.createDirectories(staging());
        Files.write(temp, bytes);
        force(temp);
        Files.move(
                temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        force(target.getParent());
    }

    /**
     * Links {@code temp} under {@code target}, failing if a file is there. On a file system without
     * hard links (FAT, some network shares) it renames instead, after looking that no file is
     * there: a file another process writes under the name between the look and the rename would be
     * replaced.
     */
    private static void link(Path target, Path temp) throws IOException {
        try {
            Files.createLink(target, temp);
            return;
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
            if (Files.exists(target)) {
                throw new FileAlreadyExistsException(target.toString());
            }
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Flushes a file, or a folder's entries, to the disk: a commit record or a published file that
     * a power loss could cut short or lose would break exactly-once silently.
     */
    static void force(Path path) throws IOException {
        boolean folder = Files.isDirectory(path);
        try (java.nio.channels.FileChannel channel =
                java.nio.channels.FileChannel.open(
                        path,
                        folder
                                ? java.nio.file.StandardOpenOption.READ
                                : java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        return Files.readAllBytes(path(key));
    }

    @Override
    public boolean exists(String key) {
        return Files.isRegularFile(path(key));
    }

    /**
     * Walks only the deepest folder the prefix names, and tolerates files that vanish mid-walk (a
     * concurrent publish or delete).
     */
    @Override
    public List<String> list(String prefix) throws IOException {
        int slash = prefix.lastIndexOf('/');
        Path start = slash < 0 ? root() : path(prefix.substring(0, slash));
        if (!Files.isDirectory(start)) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        Files.walkFileTree(
                start,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                        return d.equals(staging()) ? FileVisitResult.SKIP_SUBTREE : CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                        String key = root().relativize(f).toString().replace('\\', '/');
                        if (a.isRegularFile()
                                && key.startsWith(prefix)
                                && !key.startsWith(".")
                                && !key.contains("/.")) {
                            keys.add(key);
                        }
                        return CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path f, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return CONTINUE;
                        }
                        throw e;
                    }
                });
        Collections.sort(keys);
        return keys;
    }

    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(path(key));
    }

    @Override
    public void download(String key, Path local) throws IOException {
        if (!exists(key)) {
            throw new NoSuchFileException(path(key).toString());
        }
        Files.copy(path(key), local, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
