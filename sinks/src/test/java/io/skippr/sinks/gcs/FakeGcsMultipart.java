package io.skippr.sinks.gcs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two parts of a JSON API multipart upload ({@code uploadType=multipart}, content type {@code
 * multipart/related; boundary=...}): the object's metadata as JSON, then its bytes.
 */
record FakeGcsMultipart(byte[] metadata, byte[] media) {
    private static final Pattern BOUNDARY = Pattern.compile("boundary=\"?([^\";]+)\"?");

    static FakeGcsMultipart parse(String contentType, byte[] body) {
        Matcher m = BOUNDARY.matcher(contentType == null ? "" : contentType);
        if (contentType == null || !contentType.startsWith("multipart/related") || !m.find()) {
            throw new FakeGcsError(
                    400, "invalid", "a multipart upload needs Content-Type multipart/related");
        }
        byte[] delimiter = ("--" + m.group(1)).getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> parts = new ArrayList<>();
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int start = at + delimiter.length;
            if (start + 1 < body.length && body[start] == '-' && body[start + 1] == '-') {
                break; // the closing delimiter
            }
            start = skipLineBreak(body, start);
            int next =
                    indexOf(
                            body,
                            ("\r\n" + new String(delimiter, StandardCharsets.ISO_8859_1))
                                    .getBytes(StandardCharsets.ISO_8859_1),
                            start);
            if (next < 0) {
                throw new FakeGcsError(400, "invalid", "unterminated multipart body");
            }
            parts.add(content(Arrays.copyOfRange(body, start, next)));
            at = next + 2;
        }
        if (parts.size() != 2) {
            throw new FakeGcsError(
                    400, "invalid", "a multipart upload has 2 parts, not " + parts.size());
        }
        return new FakeGcsMultipart(parts.get(0), parts.get(1));
    }

    private static int skipLineBreak(byte[] body, int at) {
        return at + 1 < body.length && body[at] == '\r' && body[at + 1] == '\n' ? at + 2 : at;
    }

    /** A part's content, after its headers and the blank line that ends them. */
    private static byte[] content(byte[] part) {
        if (part.length >= 2 && part[0] == '\r' && part[1] == '\n') {
            return Arrays.copyOfRange(part, 2, part.length); // no headers
        }
        int end = indexOf(part, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
        if (end < 0) {
            throw new FakeGcsError(400, "invalid", "a multipart part without headers' end");
        }
        return Arrays.copyOfRange(part, end + 4, part.length);
    }

    private static int indexOf(byte[] data, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
