package io.skippr.cli;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Looks for a secret in bytes and files in every form a leak takes: the literal text, its
 * URL-encoding (as in a connection URL or a form body), its hex, and its Base64 and URL-safe Base64
 * (as in an HTTP Basic header or a serialized blob). Base64 is matched inside a longer encoded text
 * too, at each of the three byte alignments the secret may start at: {@code base64("user:" +
 * secret)} holds none of {@code base64(secret)}'s characters, but it holds the characters that only
 * the secret's bytes determine.
 */
final class SecretScan {
    private final Map<String, String> forms = new LinkedHashMap<>();

    SecretScan(String secret) {
        if (secret.length() < 8) {
            throw new IllegalArgumentException("a secret this short matches by chance");
        }
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        forms.put(secret, "the literal text");
        forms.putIfAbsent(URLEncoder.encode(secret, StandardCharsets.UTF_8), "URL-encoded");
        forms.putIfAbsent(
                URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20"),
                "URL-encoded");
        forms.putIfAbsent(HexFormat.of().formatHex(bytes), "hex");
        for (int offset = 0; offset < 3; offset++) {
            byte[] shifted = new byte[offset + bytes.length];
            System.arraycopy(bytes, 0, shifted, offset, bytes.length);
            int from = (offset * 8 + 5) / 6; // the first character of the secret's bits alone
            int to = shifted.length * 8 / 6; // after the last one
            String standard = Base64.getEncoder().withoutPadding().encodeToString(shifted);
            String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(shifted);
            forms.putIfAbsent(standard.substring(from, to), "Base64");
            forms.putIfAbsent(urlSafe.substring(from, to), "URL-safe Base64");
        }
    }

    /** Each form, as the text to look for and what it is ("Base64", …). */
    Map<String, String> forms() {
        return Map.copyOf(forms);
    }

    /** The forms of the secret that {@code data} holds, such as {@code "Base64"}; empty if none. */
    List<String> find(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        List<String> found = new ArrayList<>();
        forms.forEach(
                (form, name) -> {
                    if (text.contains(form) && !found.contains(name)) {
                        found.add(name);
                    }
                });
        return found;
    }

    /**
     * Where the literal secret sits in {@code data}: up to {@code width} printable characters
     * before each occurrence, the secret itself masked, to tell which object holds it.
     */
    List<String> contexts(byte[] data, String secret, int width) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        List<String> contexts = new ArrayList<>();
        for (int at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
            String before = text.substring(Math.max(0, at - width), at);
            contexts.add(before.replaceAll("[^\\x20-\\x7e]", ".") + "<secret>");
        }
        return contexts;
    }

    /**
     * Every regular file under {@code roots} that holds the secret in some form, as {@code "<file>:
     * <forms>"}; files that vanish while being read (Flink cleans up as it runs) are skipped.
     *
     * @param scanned receives each file read
     */
    List<String> findIn(List<Path> roots, List<Path> scanned) throws IOException {
        List<String> leaks = new ArrayList<>();
        for (Path root : roots) {
            Files.walkFileTree(
                    root,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                                throws IOException {
                            if (!attrs.isRegularFile()) {
                                return FileVisitResult.CONTINUE;
                            }
                            byte[] data;
                            try {
                                data = Files.readAllBytes(file);
                            } catch (NoSuchFileException gone) {
                                return FileVisitResult.CONTINUE;
                            }
                            scanned.add(file);
                            List<String> found = find(data);
                            if (!found.isEmpty()) {
                                leaks.add(file + ": " + String.join(", ", found));
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e)
                                throws IOException {
                            if (e instanceof NoSuchFileException) {
                                return FileVisitResult.CONTINUE; // removed while we walked
                            }
                            throw e;
                        }
                    });
        }
        return leaks;
    }
}
