package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.core.record.DataType;
import io.skippr.core.record.DataType.Kind;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TypeInferenceTest {

    private static DataType text(String... values) {
        TypeInference t = new TypeInference();
        Arrays.stream(values).forEach(t::addText);
        return t.type();
    }

    private static DataType json(String... values) throws Exception {
        TypeInference t = new TypeInference();
        for (String v : values) {
            JsonNode node = JsonlFileReader.MAPPER.readTree(v);
            t.addJson(node);
        }
        return t.type();
    }

    @Test
    void textValuesGetTheNarrowestType() {
        assertThat(TypeInference.ofText("true")).isEqualTo(Kind.BOOLEAN);
        assertThat(TypeInference.ofText("FALSE")).isEqualTo(Kind.BOOLEAN);
        assertThat(TypeInference.ofText("-42")).isEqualTo(Kind.INT64);
        assertThat(TypeInference.ofText("0")).isEqualTo(Kind.INT64);
        assertThat(TypeInference.ofText("007")).isEqualTo(Kind.STRING);
        assertThat(TypeInference.ofText("99999999999999999999")).isEqualTo(Kind.FLOAT64);
        assertThat(TypeInference.ofText("1.5e3")).isEqualTo(Kind.FLOAT64);
        assertThat(TypeInference.ofText("NaN")).isEqualTo(Kind.STRING);
        assertThat(TypeInference.ofText("2024-02-29")).isEqualTo(Kind.DATE);
        assertThat(TypeInference.ofText("2023-02-29")).isEqualTo(Kind.STRING);
        assertThat(TypeInference.ofText("2024-05-01T10:00:00Z")).isEqualTo(Kind.TIMESTAMP_TZ);
        assertThat(TypeInference.ofText("2024-05-01T10:00:00.5-05:00"))
                .isEqualTo(Kind.TIMESTAMP_TZ);
        assertThat(TypeInference.ofText("2024-05-01T10:00:00")).isEqualTo(Kind.TIMESTAMP);
        assertThat(TypeInference.ofText("2024-05-01 10:00:00")).isEqualTo(Kind.STRING);
        assertThat(TypeInference.ofText("{\"a\":1}")).isEqualTo(Kind.STRING);
        assertThat(TypeInference.ofText(null)).isNull();
    }

    @Test
    void samplesCombine() {
        assertThat(text("1", "2", null)).isEqualTo(DataType.INT64);
        assertThat(text("1", "2.5")).isEqualTo(DataType.FLOAT64);
        assertThat(text("1", "true")).isEqualTo(DataType.STRING);
        assertThat(text("2024-01-01", "2024-01-01T00:00:00")).isEqualTo(DataType.STRING);
        assertThat(text(null, null)).isEqualTo(DataType.STRING);
        assertThat(text()).isEqualTo(DataType.STRING);
    }

    @Test
    void jsonValuesKeepTheirJsonTypes() throws Exception {
        assertThat(json("1", "2")).isEqualTo(DataType.INT64);
        assertThat(json("1", "2.0")).isEqualTo(DataType.FLOAT64);
        assertThat(json("123456789012345678901234567890")).isEqualTo(DataType.FLOAT64);
        assertThat(json("true", "null")).isEqualTo(DataType.BOOLEAN);
        assertThat(json("\"12\"")).isEqualTo(DataType.STRING);
        assertThat(json("\"2024-01-01\"")).isEqualTo(DataType.DATE);
        assertThat(json("\"2024-01-01T01:02:03Z\"")).isEqualTo(DataType.TIMESTAMP_TZ);
        assertThat(json("{\"a\":1}", "[1,2]")).isEqualTo(DataType.JSON);
        assertThat(json("{\"a\":1}", "\"x\"")).isEqualTo(DataType.STRING);
    }
}
