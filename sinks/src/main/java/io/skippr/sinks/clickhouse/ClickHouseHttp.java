package io.skippr.sinks.clickhouse;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ClickHouse's HTTP interface: one POST per statement, the statement (and for an insert, its rows)
 * in the body, the login in a Basic authorization header. Errors name the server and the user,
 * never the password or the rows.
 */
final class ClickHouseHttp {
    /** Server error codes that mean the login was refused. */
    private static final Set<Integer> LOGIN_REFUSED = Set.of(192, 193, 194, 195, 516);

    /** {@code Code: 193, e.displayText() = DB::Exception: …} (18.16) or {@code Code: 516. …}. */
    private static final Pattern ERROR =
            Pattern.compile(
                    "Code: (\\d+)[,.] (?:e\\.displayText\\(\\) = )?(?:DB::Exception: )?(.*?)"
                            + "(?:, e\\.what\\(\\) = .*)?",
                    Pattern.DOTALL);

    private final ClickHouseSettings settings;
    private final HttpClient client;
    private final URI endpoint;
    private final String authorization;

    ClickHouseHttp(ClickHouseSettings settings) {
        this.settings = settings;
        this.client =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
        this.endpoint = URI.create(settings.address() + "/");
        String password = settings.password() == null ? "" : settings.password().reveal();
        this.authorization =
                "Basic "
                        + Base64.getEncoder()
                                .encodeToString(
                                        (settings.user() + ":" + password)
                                                .getBytes(StandardCharsets.UTF_8));
    }

    /** Runs {@code sql} and returns what the server answered (TabSeparated unless it says). */
    String query(String sql) throws InterruptedException {
        return send(sql, HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
    }

    /** Runs {@code insert} (an INSERT … FORMAT statement) with {@code length} bytes of rows. */
    void insert(String insert, byte[] rows, int length) throws InterruptedException {
        send(
                insert,
                HttpRequest.BodyPublishers.concat(
                        HttpRequest.BodyPublishers.ofString(insert + "\n", StandardCharsets.UTF_8),
                        HttpRequest.BodyPublishers.ofByteArray(rows, 0, length)));
    }

    private String send(String statement, HttpRequest.BodyPublisher body)
            throws InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(endpoint)
                        .timeout(Duration.ofMinutes(10))
                        .header("Authorization", authorization)
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .POST(body)
                        .build();
        HttpResponse<String> response;
        try {
            response =
                    client.send(
                            request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new ClickHouseException(
                    "Cannot reach ClickHouse at "
                            + where()
                            + ": "
                            + reason(e)
                            + ". Is the server running, and is port "
                            + settings.port()
                            + " its HTTP interface?",
                    e);
        } catch (HttpTimeoutException e) {
            throw new ClickHouseException(
                    "ClickHouse at " + where() + " did not answer in time: " + summary(statement),
                    e);
        } catch (IOException e) {
            throw new ClickHouseException(
                    "Cannot talk to ClickHouse at "
                            + where()
                            + ": "
                            + reason(e)
                            + ". Is port "
                            + settings.port()
                            + " its HTTP interface"
                            + (settings.secure() ? " with HTTPS" : " without HTTPS")
                            + "?",
                    e);
        }
        if (response.statusCode() == 200) {
            return response.body();
        }
        throw failure(statement, response.statusCode(), response.body());
    }

    private ClickHouseException failure(String statement, int status, String body) {
        Matcher m = ERROR.matcher(body.strip());
        int code = m.matches() ? Integer.parseInt(m.group(1)) : -1;
        String message = m.matches() ? m.group(2).strip() : "HTTP " + status + ": " + body.strip();
        if (LOGIN_REFUSED.contains(code) || (code < 0 && (status == 401 || status == 403))) {
            return new ServerError(
                    code,
                    "ClickHouse at "
                            + where()
                            + " refused the login: "
                            + message
                            + ". Check the data sink's user and password.");
        }
        return new ServerError(
                code,
                "ClickHouse at "
                        + where()
                        + " failed "
                        + summary(statement)
                        + ": "
                        + message
                        + (code >= 0 ? " (code " + code + ")" : ""));
    }

    private String where() {
        return settings.address() + " as user '" + settings.user() + "'";
    }

    private static String reason(IOException e) {
        Throwable t = e;
        while (t.getMessage() == null && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** The statement's first line, shortened: what failed, without any rows. */
    private static String summary(String statement) {
        String first = statement.strip().lines().findFirst().orElse("");
        return first.length() > 200 ? first.substring(0, 200) + "…" : first;
    }

    /** An error the server reported, with its code (-1 if it gave none). */
    static final class ServerError extends ClickHouseException {
        private static final long serialVersionUID = 1L;

        private final int code;

        ServerError(int code, String message) {
            super(message);
            this.code = code;
        }

        int code() {
            return code;
        }
    }
}
