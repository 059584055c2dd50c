package io.skippr.sinks.snowflake;

import io.skippr.config.Secret;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Properties;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * How Skippr logs in to a Snowflake account through the official driver: with a password, or with a
 * key pair (a PKCS#8 PEM private key file, encrypted with a passphrase or not; {@code
 * SNOWFLAKE_JWT}). Secrets travel in the job graph as {@link Secret}s (their references, never
 * their values) and are revealed only to hand them to the driver; {@link #toString()} names the
 * account, user and database.
 *
 * @param account the account identifier ({@code orgname-account})
 * @param endpoint the account's URL when it is not {@code https://<account>.snowflakecomputing.com}
 *     (private link, tests: {@code http://127.0.0.1:8080}), or null
 */
record SnowflakeLogin(
        String account,
        String endpoint,
        String user,
        Secret password,
        String privateKeyFile,
        Secret privateKeyPassphrase,
        String database,
        String warehouse,
        String role)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The driver logs every login and statement at INFO through java.util.logging: kept to warnings
     * (the logger is held, as java.util.logging holds loggers weakly).
     */
    private static final java.util.logging.Logger DRIVER_LOG = quiet();

    private static java.util.logging.Logger quiet() {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("net.snowflake");
        log.setLevel(java.util.logging.Level.WARNING);
        return log;
    }

    String url() {
        if (endpoint == null) {
            return "jdbc:snowflake://" + account + ".snowflakecomputing.com/";
        }
        String e = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        if (e.startsWith("http://")) {
            return "jdbc:snowflake://" + e.substring("http://".length()) + "/?ssl=off";
        }
        return "jdbc:snowflake://"
                + (e.startsWith("https://") ? e.substring("https://".length()) : e)
                + "/";
    }

    Connection connect() throws SQLException, IOException {
        DRIVER_LOG.getLevel();
        Properties p = new Properties();
        p.setProperty("account", account);
        p.setProperty("user", user);
        p.setProperty("db", database);
        if (warehouse != null) {
            p.setProperty("warehouse", warehouse);
        }
        if (role != null) {
            p.setProperty("role", role);
        }
        p.setProperty("application", "skippr");
        p.setProperty("JDBC_QUERY_RESULT_FORMAT", "JSON");
        // quoted names stay case-sensitive even where an account or user sets this parameter: a
        // COPY matches staged columns by their exact names, and would load NULLs otherwise
        p.setProperty("QUOTED_IDENTIFIERS_IGNORE_CASE", "false");
        // no probing of cloud instance metadata at each login
        p.setProperty("disablePlatformDetection", "true");
        if (privateKeyFile != null) {
            p.setProperty("authenticator", "SNOWFLAKE_JWT");
            p.put("privateKey", privateKey());
        } else if (password != null) {
            p.setProperty("password", password.reveal());
        }
        return new net.snowflake.client.api.driver.SnowflakeDriver().connect(url(), p);
    }

    /** The private key of {@link #privateKeyFile}, decrypted with the passphrase if it is. */
    PrivateKey privateKey() throws IOException {
        String pem = Files.readString(Path.of(privateKeyFile), StandardCharsets.US_ASCII);
        boolean encrypted = pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        if (!encrypted && !pem.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IOException(
                    "private_key_file "
                            + privateKeyFile
                            + " holds no PKCS#8 PEM key (-----BEGIN PRIVATE KEY----- or -----BEGIN"
                            + " ENCRYPTED PRIVATE KEY-----); convert it with openssl pkcs8 -topk8");
        }
        byte[] der =
                Base64.getMimeDecoder()
                        .decode(pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
        try {
            PKCS8EncodedKeySpec spec;
            if (encrypted) {
                if (privateKeyPassphrase == null) {
                    throw new IOException(
                            "private_key_file "
                                    + privateKeyFile
                                    + " is encrypted: set private_key_passphrase");
                }
                EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
                SecretKeyFactory factory = SecretKeyFactory.getInstance(info.getAlgName());
                spec =
                        info.getKeySpec(
                                factory.generateSecret(
                                        new PBEKeySpec(
                                                privateKeyPassphrase.reveal().toCharArray())));
            } else {
                spec = new PKCS8EncodedKeySpec(der);
            }
            return KeyFactory.getInstance("RSA").generatePrivate(spec);
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "cannot read the RSA private key in private_key_file "
                            + privateKeyFile
                            + ": "
                            + e.getMessage()
                            + " (a wrong private_key_passphrase, or not an RSA key)",
                    e);
        }
    }

    @Override
    public String toString() {
        return "Snowflake account "
                + account
                + (endpoint == null ? "" : " at " + endpoint)
                + ", database "
                + database
                + ", user "
                + user;
    }
}
