package io.skippr.config.catalog;

/** The value types a connector field can hold in {@code skippr.yml}. */
public enum FieldType {
    STRING("a string", "String"),
    /** A local file or folder; a relative path is relative to the folder of skippr.yml. */
    PATH("a file path", "String"),
    INTEGER("an integer", "int"),
    BOOLEAN("true or false", "boolean"),
    STRING_LIST("a list of strings", "java.util.List<String>");

    private final String expected;
    private final String javaType;

    FieldType(String expected, String javaType) {
        this.expected = expected;
        this.javaType = javaType;
    }

    /** How validation messages describe a value of this type ("expected an integer"). */
    public String expected() {
        return expected;
    }

    /** The Java parameter type of the builder method for a field of this type. */
    public String javaType() {
        return javaType;
    }
}
