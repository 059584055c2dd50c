package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan {@link SecretsStayHiddenITCase} runs over Flink's folders: mutants that plant a secret's
 * encoded forms where Flink keeps its blobs and uploads turn it red, a clean folder keeps it green.
 */
class SecretScanTest {
    private static final String SECRET = "Pw-4f1e9c0d2b7a6e38/+ &=";
    private final SecretScan scan = new SecretScan(SECRET);

    @TempDir Path tmp;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void base64OfTheSecretInsideALongerTextIsFoundAtEachAlignment() {
        for (String prefix : List.of("", "u:", "us:", "user:", "a-longer-user-name:")) {
            String header =
                    "Authorization: Basic "
                            + Base64.getEncoder()
                                    .encodeToString(
                                            (prefix + SECRET).getBytes(StandardCharsets.UTF_8));
            assertThat(scan.find(bytes(header))).as(prefix).contains("Base64");
            String urlSafe =
                    Base64.getUrlEncoder()
                            .encodeToString((prefix + SECRET).getBytes(StandardCharsets.UTF_8));
            // where the secret's part has no + or /, both alphabets give the same text
            assertThat(scan.find(bytes(urlSafe)))
                    .as(prefix)
                    .containsAnyOf("URL-safe Base64", "Base64");
        }
    }

    @Test
    void urlEncodedAndHexFormsAreFound() {
        String url =
                "postgresql://skippr:"
                        + URLEncoder.encode(SECRET, StandardCharsets.UTF_8)
                        + "@localhost/db";
        assertThat(scan.find(bytes(url))).containsExactly("URL-encoded");
        assertThat(scan.find(bytes("x=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8))))
                .containsExactly("URL-encoded");
        String hex = java.util.HexFormat.of().formatHex(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(scan.find(bytes("0x" + hex + "00"))).containsExactly("hex");
        assertThat(scan.find(bytes("..." + SECRET + "..."))).containsExactly("the literal text");
    }

    /**
     * The mutant: a secret's Base64 planted in a blob of a folder laid out as Flink's blob store
     * (and, separately, its URL-encoding in a web upload), among files that hold none: the scan
     * names exactly the planted files.
     */
    @Test
    void aBase64SecretPlantedInFlinksBlobFolderTurnsTheScanRed() throws Exception {
        Path blobs = Files.createDirectories(tmp.resolve("blobStore-1234/job_abcd"));
        Files.write(blobs.resolve("blob_p-clean"), new byte[] {1, 2, 3, 'x', 'y'});
        Path upload = Files.createDirectories(tmp.resolve("flink-web-5678/flink-web-upload"));
        Files.writeString(upload.resolve("clean.jar"), "nothing to see");
        List<Path> scanned = new ArrayList<>();
        assertThat(scan.findIn(List.of(tmp), scanned)).as("clean folders").isEmpty();
        assertThat(scanned).hasSize(2);

        Path planted = blobs.resolve("blob_p-planted");
        byte[] blob = new byte[64];
        byte[] encoded =
                bytes(
                        Base64.getEncoder()
                                .encodeToString(
                                        ("jdbc-user:" + SECRET).getBytes(StandardCharsets.UTF_8)));
        byte[] content = new byte[blob.length + encoded.length];
        System.arraycopy(encoded, 0, content, blob.length, encoded.length);
        Files.write(planted, content);
        Files.writeString(
                upload.resolve("form.txt"),
                "password=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8));

        assertThat(scan.findIn(List.of(tmp), new ArrayList<>()))
                .containsExactlyInAnyOrder(
                        planted + ": Base64", upload.resolve("form.txt") + ": URL-encoded");
    }

    @Test
    void textThatMerelySharesAPrefixIsNotAFinding() {
        assertThat(scan.find(bytes("Pw-4f1e9c0d and more"))).isEmpty();
        assertThat(scan.find(bytes(Base64.getEncoder().encodeToString(bytes("Pw-4f1e")))))
                .isEmpty();
    }
}
