package io.skippr.cli;

import io.skippr.core.errors.Causes;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.ErrorHandler;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Where {@code skipprd} logs: to the console with {@code --log}, else to {@code
 * <state>/logs/skipprd.log}. Only when {@code skipprd} runs as its own process; in-process callers
 * (tests, the Java API) keep their own logging.
 */
final class Logs {
    static final String MANAGED = "skippr.log.managed";

    private Logs() {}

    /**
     * @param warn where one warning goes if the log file cannot be written (a full disk, say),
     *     instead of log4j's stack trace for every lost line
     */
    static void configure(Path stateDir, boolean console, Consumer<String> warn) {
        if (!Boolean.getBoolean(MANAGED)) {
            return;
        }
        Path file = stateDir.resolve("logs").resolve("skipprd.log");
        System.setProperty("skippr.console.level", console ? "INFO" : "OFF");
        // Flink's web UI shows the JobManager log from here (and does not warn that it cannot)
        System.setProperty("log.file", file.toString());
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.reconfigure();
        Configuration config = context.getConfiguration();
        FileAppender appender =
                FileAppender.newBuilder()
                        .setName("file")
                        .withFileName(file.toString())
                        .withAppend(true)
                        .setLayout(
                                PatternLayout.newBuilder()
                                        .withConfiguration(config)
                                        .withPattern(
                                                "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%t] %c -"
                                                        + " %msg%n")
                                        .build())
                        .setConfiguration(config)
                        .build();
        if (appender == null) { // log4j could not open the file, and has said why
            warn.accept("warning: cannot open the log file " + file + "; the run is not logged");
            return;
        }
        appender.setHandler(new FileErrors(file, warn));
        appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        for (var logger : config.getLoggers().values()) {
            if (!logger.isAdditive()) { // Flink's: the console shows only their errors
                logger.addAppender(appender, null, null);
            }
        }
        context.updateLoggers();
    }

    /** Says once that the log file cannot be written, and why; later failures stay quiet. */
    private static final class FileErrors implements ErrorHandler {
        private final Path file;
        private final Consumer<String> warn;
        private boolean said;

        FileErrors(Path file, Consumer<String> warn) {
            this.file = file;
            this.warn = warn;
        }

        @Override
        public void error(String msg) {
            error(msg, null, null);
        }

        @Override
        public void error(String msg, Throwable t) {
            error(msg, null, t);
        }

        @Override
        public synchronized void error(String msg, LogEvent event, Throwable t) {
            if (said) {
                return;
            }
            said = true;
            String why = t == null ? null : Causes.innermost(t).getMessage();
            warn.accept(
                    "warning: cannot write the log file "
                            + file
                            + ": "
                            + (why == null ? msg : why)
                            + "; its lines are lost until it can be written again");
        }
    }
}
