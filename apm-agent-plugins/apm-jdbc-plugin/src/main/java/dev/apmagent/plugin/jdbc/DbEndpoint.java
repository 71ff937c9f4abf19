package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Db;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.SpanContext;
import dev.apmagent.plugin.InferredTarget;
import dev.apmagent.plugin.ServiceTargets;

/**
 * Everything a database span takes from its connection, resolved once per connection and then shared by every
 * span on it: vendor (the span subtype), instance, user, destination address and port, and the service target and
 * resource derived by {@link ServiceTargets}. Immutable; every text is a String, so spans can refer to them without
 * copying ({@link #applyTo} allocates nothing).
 */
final class DbEndpoint {

    static final String DB = "db";
    static final String SQL = "sql";

    /** For connections whose URL could not be found or read. */
    static final DbEndpoint UNKNOWN = of(ConnectionInfo.UNKNOWN, null);

    final String vendor;
    final String instance;
    final String user;
    final String address;
    final int port;
    final String targetType;
    final String targetName;
    final String resource;

    private DbEndpoint(String vendor, String instance, String user, String address, int port) {
        this.vendor = vendor;
        this.instance = instance;
        this.user = user;
        this.address = address;
        this.port = port;
        InferredTarget target = new InferredTarget();
        ServiceTargets.inferDb(vendor, instance, target);
        this.targetType = target.type();
        this.targetName = target.hasName() ? target.name().toString() : null;
        this.resource = target.resource().length() > 0 ? target.resource().toString() : null;
    }

    /**
     * @param info         what the URL says
     * @param userOverride the user given to the driver outside the URL (the {@code user} property), or null
     */
    static DbEndpoint of(ConnectionInfo info, String userOverride) {
        String user = userOverride != null && userOverride.length() > 0 ? userOverride : info.user();
        String host = info.host();
        return new DbEndpoint(info.vendor(), info.database(), user, host, host == null ? -1 : info.port());
    }

    /** Parses {@code url} (once per connection, never per statement). */
    static DbEndpoint ofUrl(String url, String userOverride) {
        return of(JdbcUrlParser.parse(url), userOverride);
    }

    /** Sets subtype, db instance/type/user, destination and service target of a db span; allocates nothing. */
    void applyTo(Span span) {
        span.setType(DB, vendor, span.action());
        SpanContext context = span.context();
        Db db = context.db();
        db.setType(SQL);
        db.setInstance(instance);
        db.setUser(user);
        if (address != null) {
            context.destination().setAddress(address, port);
        }
        context.destination().setServiceResource(resource);
        context.serviceTarget().set(targetType, targetName);
    }

    @Override
    public String toString() {
        return vendor + "|" + address + "|" + port + "|" + instance + "|" + user + "|" + resource;
    }
}
