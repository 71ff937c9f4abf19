package demo;

import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Dubbo provider and its consumers in the demo's own JVM: dubbo protocol on a free loopback port, direct URL, no
 * registry. {@link #start} must run before any other Dubbo class is loaded (it sets Dubbo's logging and network
 * properties).
 */
public final class DemoRpc {

    /** Dubbo and Netty log at INFO through JUL once told to; the demo keeps them quiet. */
    private static final Logger dubboLog = Logger.getLogger("org.apache.dubbo");
    private static final Logger nettyLog = Logger.getLogger("io.netty");

    /** The consumer with a 10 s timeout (generous: the tests drive the demo hard on busy machines). */
    public final AccountService accounts;
    /** The consumer with a 300 ms timeout, for calls that are meant to time out. */
    public final AccountService impatientAccounts;
    private final ServiceConfig<AccountService> service;
    private final ReferenceConfig<AccountService> reference;
    private final ReferenceConfig<AccountService> impatientReference;

    private DemoRpc(ServiceConfig<AccountService> service, ReferenceConfig<AccountService> reference,
                    ReferenceConfig<AccountService> impatientReference) {
        this.service = service;
        this.reference = reference;
        this.impatientReference = impatientReference;
        this.accounts = reference.get();
        this.impatientAccounts = impatientReference.get();
    }

    /**
     * Exports the provider (its queries go to the database at {@code jdbcUrl}, through {@link DriverManager}, where it
     * creates its account table) and refers to it.
     */
    public static DemoRpc start(String jdbcUrl, String user, String password) throws IOException, SQLException {
        Database database = new Database(jdbcUrl, user, password);
        System.setProperty("dubbo.application.logger", "jdk");
        // Dubbo treats 127.x as "no address" and picks a network interface instead; with every interface ignored it
        // falls back to the host name, which resolves to loopback, so the traffic stays on 127.0.0.1
        System.setProperty("dubbo.network.interface.ignored", ".*");
        dubboLog.setLevel(Level.OFF);
        nettyLog.setLevel(Level.OFF);
        createAccounts(database);

        ApplicationConfig application = new ApplicationConfig("apm-agent-demo");
        application.setQosEnable(false);
        application.setMetadataServicePort(freePort()); // not Dubbo's default 20880, which may be taken
        RegistryConfig registry = new RegistryConfig("N/A");
        int port = freePort();
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setHost("127.0.0.1");

        ServiceConfig<AccountService> service = new ServiceConfig<>();
        service.setApplication(application);
        service.setRegistry(registry);
        service.setProtocol(protocol);
        service.setInterface(AccountService.class);
        service.setRef(new AccountProvider(database));
        service.export();
        return new DemoRpc(service, refer(application, port, 10_000), refer(application, port, 300));
    }

    private static ReferenceConfig<AccountService> refer(ApplicationConfig application, int port, int timeoutMillis) {
        ReferenceConfig<AccountService> reference = new ReferenceConfig<>();
        reference.setApplication(application);
        reference.setInterface(AccountService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port);
        reference.setTimeout(timeoutMillis);
        reference.setRetries(0);
        reference.setCheck(false);
        return reference;
    }

    public void stop() {
        impatientReference.destroy();
        reference.destroy();
        service.unexport();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Portable SQL (H2 and PostgreSQL); the table name is the demo's own so a shared database is not disturbed. */
    private static void createAccounts(Database database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS apm_demo_accounts (id INT PRIMARY KEY, name VARCHAR(64))");
            s.execute("DELETE FROM apm_demo_accounts");
            s.execute("INSERT INTO apm_demo_accounts VALUES (1, 'ann'), (2, 'bob'), (3, 'cid')");
        }
    }

    /** Where the provider's connections come from. */
    static final class Database {
        private final String url;
        private final String user;
        private final String password;

        Database(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }

        Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    /** The provider: one query per call. */
    static final class AccountProvider implements AccountService {
        private final Database database;

        AccountProvider(Database database) {
            this.database = database;
        }

        @Override
        public String name(int id) {
            try (Connection c = database.getConnection();
                 PreparedStatement ps = c.prepareStatement("SELECT name FROM apm_demo_accounts WHERE id = ?")) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : "none";
                }
            } catch (SQLException e) {
                throw new IllegalStateException("account query failed: " + e.getMessage());
            }
        }

        @Override
        public String slow(int millis) {
            try {
                TimeUnit.MILLISECONDS.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "slept";
        }
    }
}
