package io.skippr.sinks.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
    static final String STAGING = ".skippr-staging";

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
    public String describe() {
        return root;
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        Path temp = local.toAbsolutePath().normalize();
        if (!temp.startsWith(staging())) {
            temp = staging().resolve(UUID.randomUUID().toString());
            Files.createDirectories(temp.getParent());
            Files.move(local, temp, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Staged(key, temp.toString());
    }

    @Override
    public boolean publish(Staged staged) throws IOException {
        Path temp = Path.of(staged.token());
        Path target = path(staged.key());
        if (Files.exists(temp)) {
            Files.createDirectories(target.getParent());
            Files.move(
                    temp,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            return true;
        }
        if (Files.exists(target)) {
            return false;
        }
        throw new IOException(
                "staged file "
                        + temp
                        + " is gone and "
                        + staged.key()
                        + " was never published in "
                        + root
                        + ": the sink's folder was changed while the pipeline ran");
    }

    @Override
    public void discard(Staged staged) throws IOException {
        Files.deleteIfExists(Path.of(staged.token()));
    }

    @Override
    public void discardAllStaged() throws IOException {
        deleteTree(staging());
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        Path target = path(key);
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID());
        Files.write(temp, bytes);
        Files.move(
                temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return Files.readAllBytes(path(key));
    }

    @Override
    public boolean exists(String key) {
        return Files.isRegularFile(path(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        if (!Files.isDirectory(root())) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root())) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.startsWith(staging()))
                    .map(p -> root().relativize(p).toString().replace('\\', '/'))
                    .filter(k -> !k.startsWith(".") && !k.contains("/."))
                    .filter(k -> k.startsWith(prefix))
                    .sorted()
                    .toList();
        }
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
