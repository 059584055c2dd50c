package io.skippr.sinks.s3;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link S3FileStore#publish} needs of a staged file: the id of its multipart upload and the
 * ETag of each part, in part order. As text: a version line, the upload id, then one ETag a line.
 */
record MultipartToken(String uploadId, List<String> etags) {
    static final String VERSION = "s3-multipart-1";

    String encode() {
        return VERSION + "\n" + uploadId + "\n" + String.join("\n", etags);
    }

    /**
     * The ETag S3 gives the object a multipart upload of these parts completes into (without
     * quotes): the MD5 of the parts' binary MD5s, then "-" and the part count; null when a part's
     * ETag is no MD5 (SSE-KMS, SSE-C), where it cannot be computed.
     */
    static String completedEtag(List<String> etags) {
        try {
            java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
            for (String etag : etags) {
                String hex = etag.replace("\"", "");
                if (!hex.matches("[0-9a-fA-F]{32}")) {
                    return null;
                }
                md5.update(java.util.HexFormat.of().parseHex(hex));
            }
            return java.util.HexFormat.of().formatHex(md5.digest()) + "-" + etags.size();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has MD5", e);
        }
    }

    static MultipartToken decode(String token, String where) throws IOException {
        String[] lines = token.split("\n", -1);
        if (lines.length < 3 || !lines[0].equals(VERSION)) {
            throw new IOException(
                    "the staging token of "
                            + where
                            + " is not an S3 multipart token ("
                            + VERSION
                            + "): it was staged by another kind of store or a newer Skippr");
        }
        return new MultipartToken(
                lines[1], List.copyOf(Arrays.asList(lines).subList(2, lines.length)));
    }
}
