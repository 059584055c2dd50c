package io.skippr.core.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SkipprIdTest {
    /**
     * Ids are stored in destinations and compared across runs and versions: a changed id for the
     * same stream and position would load a replayed row as a new one. These are the ids of the
     * first release (SHA-256 of the stream's UTF-8, a zero byte and the position's UTF-8, as {@code
     * printf 'orders\0000/16B3748:4' | sha256sum} prints, first 32 hex digits).
     */
    @Test
    void idsNeverChange() {
        assertThat(SkipprId.of("orders", "0/16B3748:4"))
                .isEqualTo("f62f06560468f756687bdc95dff6620e");
        assertThat(SkipprId.of("public.caf\u00e9", "k\u00e9y:1"))
                .isEqualTo("ff15c2ef85997c0b6ce64452c7abb159");
        assertThat(SkipprId.of("a", "")).isEqualTo("ffe9aaeaa2a2d5048174df0b80599ef0");
    }

    @Test
    void oneHasherGivesTheSameIdsRowAfterRow() {
        SkipprId.Hasher ids = new SkipprId.Hasher();
        String first = ids.of("orders", "0/16B3748:4");
        assertThat(ids.of("customers", "0/16B3748:4")).isNotEqualTo(first);
        assertThat(ids.of("orders", "0/16B3748:4")).isEqualTo(first);
        assertThat(ids.of("a", "")).isEqualTo("ffe9aaeaa2a2d5048174df0b80599ef0");
    }
}
