package io.skippr.job;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** Captures what one logger logs while it is open; for asserting exact log lines. */
final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final String logger;

    LogCapture(Class<?> logger) {
        this(logger.getName());
    }

    /** Captures the logger of that name (a class this package cannot see). */
    LogCapture(String logger) {
        super("capture-" + logger, null, null, true, Property.EMPTY_ARRAY);
        this.logger = logger;
        start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        LoggerConfig loggerConfig = new LoggerConfig(this.logger, null, true);
        loggerConfig.addAppender(this, null, null);
        config.addLogger(this.logger, loggerConfig);
        context.updateLoggers();
    }

    @Override
    public void append(LogEvent event) {
        messages.add(event.getMessage().getFormattedMessage());
    }

    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void close() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().removeLogger(logger);
        context.updateLoggers();
        stop();
    }
}
