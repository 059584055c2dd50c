package io.skippr.config.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/** Every connector kind on the class path, found through {@link KindProvider} services. */
public final class Catalog {
    private static final Catalog DEFAULT = load(Catalog.class.getClassLoader());

    private final Map<Role, Map<String, KindSpec>> byRole = new LinkedHashMap<>();

    private Catalog(List<KindSpec> kinds) {
        for (Role role : Role.values()) {
            byRole.put(role, new LinkedHashMap<>());
        }
        kinds.stream()
                .sorted(Comparator.comparing(KindSpec::name))
                .forEach(
                        kind -> {
                            KindSpec previous = byRole.get(kind.role()).put(kind.name(), kind);
                            if (previous != null) {
                                throw new IllegalStateException(
                                        kind.role().label()
                                                + " kind declared twice: "
                                                + kind.name());
                            }
                        });
        checkSchemaSinkLinks();
    }

    /** The catalog of the kinds visible to Skippr's own class loader. */
    public static Catalog get() {
        return DEFAULT;
    }

    public static Catalog load(ClassLoader loader) {
        List<KindSpec> kinds = new ArrayList<>();
        ServiceLoader.load(KindProvider.class, loader).forEach(p -> kinds.addAll(p.kinds()));
        return new Catalog(kinds);
    }

    public List<KindSpec> kinds(Role role) {
        return List.copyOf(byRole.get(role).values());
    }

    public List<KindSpec> all() {
        List<KindSpec> all = new ArrayList<>();
        byRole.values().forEach(m -> all.addAll(m.values()));
        return all;
    }

    public Optional<KindSpec> find(Role role, String name) {
        return Optional.ofNullable(byRole.get(role).get(name));
    }

    public KindSpec get(Role role, String name) {
        return find(role, name)
                .orElseThrow(
                        () -> new IllegalArgumentException("no " + role.label() + " kind " + name));
    }

    /** The roles in which a kind of this name exists, for "Glue is a schema sink" messages. */
    public List<Role> rolesOf(String name) {
        List<Role> roles = new ArrayList<>();
        byRole.forEach(
                (role, kinds) -> {
                    if (kinds.containsKey(name)) {
                        roles.add(role);
                    }
                });
        return roles;
    }

    private void checkSchemaSinkLinks() {
        for (KindSpec sink : kinds(Role.DATA_SINK)) {
            for (String schemaSink : sink.schemaSinks()) {
                KindSpec linked = byRole.get(Role.SCHEMA_SINK).get(schemaSink);
                if (linked == null) {
                    throw new IllegalStateException(
                            sink.name() + " links unknown schema sink kind " + schemaSink);
                }
                if (sink.paired()
                        && sink.name().equals(schemaSink)
                        && !linked.fields().equals(sink.fields())) {
                    throw new IllegalStateException(
                            "paired kind " + sink.name() + " declares different fields per role");
                }
            }
        }
    }
}
