package io.skippr.job;

/** The environment a test's servers were started with; a missing variable fails the test. */
public final class TestEnv {
    private TestEnv() {}

    /** The variable's value; fails, naming {@code server}, when it is not set. */
    public static String require(String name, String server) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: this test needs "
                            + server
                            + "; run it through scripts/test");
        }
        return value;
    }
}
