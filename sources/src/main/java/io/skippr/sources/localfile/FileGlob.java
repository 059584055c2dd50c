package io.skippr.sources.localfile;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * An absolute glob of local files, such as {@code /data/orders/*.csv}, and the files it matches.
 *
 * <p>Glob syntax is Java's ({@link java.nio.file.FileSystem#getPathMatcher}): {@code *} and {@code
 * ?} stay inside one directory, {@code **} crosses directories (and {@code a/**}{@code /b} also
 * matches {@code a/b}), {@code {x,y}} and {@code [abc]} choose. A path without glob characters
 * names one file, or every file directly inside a folder. Hidden files and folders (name starting
 * with a dot) are never matched, so writers can create {@code .name.tmp} and rename it when
 * complete.
 */
public final class FileGlob implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String glob;

    private FileGlob(String glob) {
        this.glob = glob;
    }

    /** The glob {@code path}, made absolute against {@code workingDir} if it is relative. */
    public static FileGlob resolve(String path, Path workingDir) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("path is empty");
        }
        Path p = Path.of(path.trim());
        if (!p.isAbsolute()) {
            p = workingDir.toAbsolutePath().resolve(p);
        }
        return new FileGlob(p.normalize().toString());
    }

    /** The absolute glob. */
    public String pattern() {
        return glob;
    }

    /** Whether the glob's last segment has an extension (without glob characters). */
    String fileNamePattern() {
        Path p = Path.of(glob);
        return p.getFileName() == null ? "" : p.getFileName().toString();
    }

    boolean isLiteral() {
        return !hasGlobCharacters(glob);
    }

    /** The regular files matched now, as absolute paths in path order. */
    public List<Path> match() throws IOException {
        Path full = Path.of(glob);
        Path base = full.getRoot();
        int literal = 0;
        while (literal < full.getNameCount()
                && !hasGlobCharacters(full.getName(literal).toString())) {
            base = base.resolve(full.getName(literal));
            literal++;
        }
        List<Path> out = new ArrayList<>();
        if (literal == full.getNameCount()) {
            if (Files.isRegularFile(full)) {
                out.add(full);
            } else if (Files.isDirectory(full)) {
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(full)) {
                    for (Path f : dir) {
                        if (Files.isRegularFile(f) && !hidden(f)) {
                            out.add(f);
                        }
                    }
                }
            }
            out.sort(null);
            return out;
        }
        if (!Files.isDirectory(base)) {
            return out;
        }
        int depth = glob.contains("**") ? Integer.MAX_VALUE : full.getNameCount() - literal;
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        PathMatcher shallow =
                glob.contains("/**/")
                        ? FileSystems.getDefault()
                                .getPathMatcher("glob:" + glob.replace("/**/", "/"))
                        : matcher;
        Path root = base;
        Files.walkFileTree(
                base,
                EnumSet.of(FileVisitOption.FOLLOW_LINKS),
                depth,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                        return !dir.equals(root) && hidden(dir)
                                ? FileVisitResult.SKIP_SUBTREE
                                : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile()
                                && !hidden(file)
                                && (matcher.matches(file) || shallow.matches(file))) {
                            out.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // unreadable or vanished: not matched
                    }
                });
        out.sort(null);
        return out;
    }

    private static boolean hidden(Path p) {
        Path name = p.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    static boolean hasGlobCharacters(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{' || c == '\\') {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return glob;
    }
}
