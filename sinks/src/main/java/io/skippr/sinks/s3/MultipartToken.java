package io.skippr.sinks.s3;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link S3FileStore#publish} needs of a staged file: the id of its multipart upload, the
 * SHA-256 and size of its content (null and -1 in a token an earlier Skippr wrote), and the ETag of
 * each part, in part order. As text: a version line, the upload id, then (version 2) the SHA-256
 * and the size, then one ETag a line. Version 1 tokens (no SHA-256, no size) are still read: a
 * checkpoint taken before may hold them.
 */
record MultipartToken(String uploadId, String sha256, long size, List<String> etags) {
    static final String VERSION = "s3-multipart-2";
    static final String VERSION_1 = "s3-multipart-1";

    /** A token without content checksum, as version 1 wrote them. */
    MultipartToken(String uploadId, List<String> etags) {
        this(uploadId, null, -1, etags);
    }

    String encode() {
        if (sha256 == null) {
            return VERSION_1 + "\n" + uploadId + "\n" + String.join("\n", etags);
        }
        return VERSION
                + "\n"
                + uploadId
                + "\n"
                + sha256
                + "\n"
                + size
                + "\n"
                + String.join("\n", etags);
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
        if (lines.length >= 3 && lines[0].equals(VERSION_1)) {
            return new MultipartToken(
                    lines[1], List.copyOf(Arrays.asList(lines).subList(2, lines.length)));
        }
        if (lines.length < 5 || !lines[0].equals(VERSION)) {
            throw new IOException(
                    "the staging token of "
                            + where
                            + " is not an S3 multipart token ("
                            + VERSION
                            + "): it was staged by another kind of store or a newer Skippr");
        }
        long size;
        try {
            size = Long.parseLong(lines[3]);
        } catch (NumberFormatException e) {
            throw new IOException("the staging token of " + where + " has no size: " + lines[3]);
        }
        return new MultipartToken(
                lines[1],
                lines[2],
                size,
                List.copyOf(Arrays.asList(lines).subList(4, lines.length)));
    }
}
