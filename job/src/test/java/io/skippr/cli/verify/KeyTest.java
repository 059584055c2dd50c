package io.skippr.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys in the order both databases give them, and key ranges cut at quantile keys. */
class KeyTest {

    private static Key key(DataType.Kind kind, String canonical) {
        return new Key(List.of(canonical), List.of(canonical), List.of(kind));
    }

    private static List<String> sorted(DataType.Kind kind, String... canonical) {
        List<Key> keys = new ArrayList<>();
        for (String c : canonical) {
            keys.add(key(kind, c));
        }
        keys.sort(Key.ORDER);
        return keys.stream().map(Key::toString).toList();
    }

    @Test
    void textsOrderByTheirUtf8BytesNotByALanguage() {
        assertThat(sorted(DataType.Kind.STRING, "é", "b", "a", "Z", "A", "", "a b", "ab"))
                .containsExactly("", "A", "Z", "a", "a b", "ab", "b", "é");
    }

    @Test
    void numbersDatesAndTimestampsOrderByValueNotByText() {
        assertThat(sorted(DataType.Kind.INT64, "10", "9", "-1", "-10"))
                .containsExactly("-10", "-1", "9", "10");
        assertThat(sorted(DataType.Kind.DECIMAL, "1.5", "-875", "10", "1.25"))
                .containsExactly("-875", "1.25", "1.5", "10");
        assertThat(sorted(DataType.Kind.TIMESTAMP_TZ, "1704067200000001", "-1", "99"))
                .containsExactly("-1", "99", "1704067200000001");
    }

    @Test
    void compositeKeysOrderColumnByColumnWithNullsLast() {
        List<DataType.Kind> kinds = List.of(DataType.Kind.STRING, DataType.Kind.DATE);
        List<Key> keys = new ArrayList<>();
        keys.add(new Key(List.of("b", "1"), List.of("b", "1970-01-02"), kinds));
        keys.add(new Key(List.of("a", "20"), List.of("a", "1970-01-21"), kinds));
        keys.add(new Key(List.of("a", "3"), List.of("a", "1970-01-04"), kinds));
        keys.add(new Key(Arrays.asList(null, null), Arrays.asList(null, null), kinds));
        keys.sort(Key.ORDER);
        assertThat(keys.stream().map(Key::toString))
                .containsExactly(
                        "(a, 1970-01-04)", "(a, 1970-01-21)", "(b, 1970-01-02)", "(NULL, NULL)");
        assertThat(keys.get(0).json()).isEqualTo("[\"a\",\"1970-01-04\"]");
        assertThat(key(DataType.Kind.INT32, "7").json()).isEqualTo("7");
        assertThat(key(DataType.Kind.UUID, "8f14e45f-ceea-167a-5a36-dedd4bea2543").json())
                .isEqualTo("\"8f14e45f-ceea-167a-5a36-dedd4bea2543\"");
    }

    @Test
    void aRangeIsCutAtEachDistinctQuantileKeyAndStillCoversItsEnds() {
        List<List<String>> cuts = List.of(List.of("b"), List.of("b"), List.of("d"), List.of("f"));
        assertThat(StreamCheck.parts(KeyRange.ALL, cuts))
                .containsExactly(
                        new KeyRange(null, List.of("b")),
                        new KeyRange(List.of("b"), List.of("d")),
                        new KeyRange(List.of("d"), List.of("f")),
                        new KeyRange(List.of("f"), null));
        // a cut on the range's upper bound adds no empty part
        assertThat(StreamCheck.parts(new KeyRange(List.of("a"), List.of("f")), cuts))
                .containsExactly(
                        new KeyRange(List.of("a"), List.of("b")),
                        new KeyRange(List.of("b"), List.of("d")),
                        new KeyRange(List.of("d"), List.of("f")));
        assertThat(StreamCheck.parts(KeyRange.ALL, List.of())).containsExactly(KeyRange.ALL);
    }
}
