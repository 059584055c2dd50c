package io.skippr.config.catalog;

import java.util.List;

/**
 * Declares connector kinds. Implementations are registered in {@code
 * META-INF/services/io.skippr.config.catalog.KindProvider} and found with {@link
 * java.util.ServiceLoader}; nothing else lists the kinds.
 */
public interface KindProvider {
    List<KindSpec> kinds();
}
