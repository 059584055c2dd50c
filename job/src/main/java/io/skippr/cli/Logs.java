package io.skippr.cli;

import java.nio.file.Path;

/**
 * Where {@code skipprd} logs: to the console with {@code --log}, else to {@code
 * <state>/logs/skipprd.log}. Only when {@code skipprd} runs as its own process; in-process callers
 * (tests, the Java API) keep their own logging.
 */
final class Logs {
    static final String MANAGED = "skippr.log.managed";

    private Logs() {}

    static void configure(Path stateDir, boolean console) {
        if (!Boolean.getBoolean(MANAGED)) {
            return;
        }
        System.setProperty(
                "skippr.log.file", stateDir.resolve("logs").resolve("skipprd.log").toString());
        System.setProperty("skippr.console.level", console ? "INFO" : "OFF");
        org.apache.logging.log4j.core.LoggerContext context =
                (org.apache.logging.log4j.core.LoggerContext)
                        org.apache.logging.log4j.LogManager.getContext(false);
        context.reconfigure();
    }
}
