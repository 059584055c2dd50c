package io.skippr.sinks.snowflake.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/**
 * Snowflake's key-pair login ({@code AUTHENTICATOR = SNOWFLAKE_JWT}): the driver signs a JWT with
 * the user's private key (RS256), issued by {@code ACCOUNT.USER.SHA256:<fingerprint of the public
 * key>} for subject {@code ACCOUNT.USER}; the fake checks it against the user's public key.
 */
final class JwtLogin {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JwtLogin() {}

    static String fingerprint(PublicKey key) throws GeneralSecurityException {
        return "SHA256:"
                + Base64.getEncoder()
                        .encodeToString(
                                MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
    }

    /**
     * Whether {@code token} is a valid, unexpired JWT of {@code account}'s {@code user} signed by
     * {@code key}.
     */
    static boolean valid(String token, String account, String user, PublicKey key) {
        try {
            String[] parts = token.split("\\.");
            if (parts.length != 3) {
                return false;
            }
            Base64.Decoder b64 = Base64.getUrlDecoder();
            JsonNode header = JSON.readTree(b64.decode(parts[0]));
            JsonNode claims = JSON.readTree(b64.decode(parts[1]));
            if (!"RS256".equals(header.path("alg").asText())) {
                return false;
            }
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(key);
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rsa.verify(b64.decode(parts[2]))) {
                return false;
            }
            String subject = account + "." + user;
            return claims.path("sub").asText().equals(subject)
                    && claims.path("iss").asText().equals(subject + "." + fingerprint(key))
                    && claims.path("exp").asLong() > Instant.now().getEpochSecond();
        } catch (Exception e) {
            return false;
        }
    }
}
