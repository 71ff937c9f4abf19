package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ContextField;
import dev.apmagent.testing.ChildFirstLoader;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The version matrix: the oldest and a middle H2 driver (jars copied by the build) and the newest (the test class
 * path's jar), each loaded in class loaders of its own as an application server would, get the same spans for the
 * same calls, on both paths of the plugin's stores: with the driver loaded after the instrumentation was installed
 * (its statements and connections get context fields) and before (retransformed: the stores' weak maps).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class H2VersionMatrixTest {

    private PluginAgent agent;
    private final List<URLClassLoader> loaders = new ArrayList<>();
    /** Per version, a driver whose classes were loaded (and used) before the installation. */
    private final Map<String, Driver> loadedBefore = new HashMap<>();

    static List<String> versions() {
        List<String> out = new ArrayList<>();
        String configured = System.getProperty("apm.h2.versions");
        if (configured == null) {
            fail("system property apm.h2.versions is not set (the module's pom sets it)");
        }
        for (String v : configured.split(",")) {
            out.add(v.trim());
        }
        out.add("current");
        return out;
    }

    static List<Arguments> versionsAndPaths() {
        List<Arguments> out = new ArrayList<>();
        for (String version : versions()) {
            out.add(Arguments.of(version, true));
            out.add(Arguments.of(version, false));
        }
        return out;
    }

    @BeforeAll
    void install() throws Exception {
        for (String version : versions()) {
            Driver driver = driver(version);
            Properties props = new Properties();
            props.setProperty("user", "sa");
            try (Connection c = driver.connect("jdbc:h2:mem:before_" + version.replace('.', '_'), props);
                 Statement s = c.createStatement(); PreparedStatement ps = c.prepareStatement("SELECT 1")) {
                s.execute("SELECT 1");
                ps.execute();
            }
            loadedBefore.put(version, driver);
        }
        agent = AbstractJdbcScenarios.installJdbc();
    }

    @AfterAll
    void uninstall() {
        agent.uninstall();
        // the loaders are not closed: their classes stay loaded, and later tests' installs retransform every loaded
        // class, which needs the class files; unreachable, the loaders and their classes are collected
        loaders.clear();
    }

    @BeforeEach
    void startTracer() {
        agent.startTracer(Collections.<String, Object>emptyMap());
    }

    @AfterEach
    void stopTracer() {
        agent.stopTracer();
    }

    /** The driver of {@code version} in a new class loader. */
    private Driver driver(String version) throws Exception {
        URLClassLoader loader = h2Loader(jar(version));
        loaders.add(loader);
        Driver driver = (Driver) loader.loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
        assertSame(loader, driver.getClass().getClassLoader());
        return driver;
    }

    private static URL jar(String version) throws Exception {
        if (version.equals("current")) {
            return org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation();
        }
        File jar = new File(System.getProperty("apm.matrix.drivers"), "h2-" + version + ".jar");
        assertTrue(jar.isFile(), jar + " is missing (copied by maven-dependency-plugin)");
        return jar.toURI().toURL();
    }

    /** Loads {@code org.h2.*} from {@code jar} itself, everything else from its parent, as a web application does. */
    static URLClassLoader h2Loader(URL jar) {
        return new ChildFirstLoader(jar, ClassLoader.getSystemClassLoader(), "org.h2.");
    }

    /**
     * The unsupported case: a loader that cannot see the agent (its parent is the platform loader) is left alone. Its
     * driver works exactly as without the agent and records nothing, instead of failing inside advice on every call.
     */
    @org.junit.jupiter.api.Test
    void aLoaderThatCannotSeeTheAgentStaysUninstrumentedAndUnharmed() throws Exception {
        String version = versions().get(0);
        URLClassLoader loader = new URLClassLoader(new URL[]{jar(version)}, ClassLoader.getPlatformClassLoader());
        loaders.add(loader);
        Driver driver = (Driver) loader.loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
        long transformed = agent.transformedTypes();
        Properties props = new Properties();
        props.setProperty("user", "sa");
        int count = agent.inTransaction(() -> {
            try (Connection c = driver.connect("jdbc:h2:mem:isolated", props); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES")) {
                rs.next();
                return rs.getInt(1);
            }
        });
        assertTrue(count > 0);
        assertEquals(List.of(), agent.spans());
        assertEquals(transformed, agent.transformedTypes(), "no class of the isolated loader was transformed");
    }

    @ParameterizedTest(name = "{0}, loaded after the installation: {1}")
    @MethodSource("versionsAndPaths")
    void sameSpansOnEveryVersion(String version, boolean loadedAfter) throws Exception {
        Driver driver = loadedAfter ? driver(version) : loadedBefore.get(version);
        String db = "matrix_" + version.replace('.', '_') + (loadedAfter ? "_after" : "_before");
        int statementsInMap = StatementSql.statementSql.size();
        int connectionsInMap = Endpoints.connections.size();
        int expectedInMaps = loadedAfter ? 0 : 1;
        String url = "jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1";
        Properties props = new Properties();
        props.setProperty("user", "sa");
        props.setProperty("password", "");
        SQLException[] error = new SQLException[1];
        List<String> names = agent.inTransaction(() -> {
            List<String> out = new ArrayList<>();
            try (Connection c = driver.connect(url, props)) {
                assertEquals(loadedAfter, c instanceof ContextField, c.getClass() + " has a context field");
                assertEquals(connectionsInMap + expectedInMaps, Endpoints.connections.size(), "connections in the map");
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10))");
                    assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')"));
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT name FROM t WHERE id = ?")) {
                    assertEquals(loadedAfter, ps instanceof ContextField, ps.getClass() + " has a context field");
                    assertEquals(statementsInMap + expectedInMaps, StatementSql.statementSql.size(), "statements in the map");
                    ps.setInt(1, 2);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        out.add(rs.getString(1));
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("UPDATE t SET name = ? WHERE id = ?")) {
                    ps.setString(1, "z");
                    ps.setInt(2, 1);
                    ps.addBatch();
                    ps.setInt(2, 2);
                    ps.addBatch();
                    out.add("batch " + ps.executeBatch().length);
                }
                try (Statement s = c.createStatement()) {
                    error[0] = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM missing"));
                }
            }
            return out;
        });
        assertEquals(List.of("b", "batch 2"), names);
        assertEquals(statementsInMap, StatementSql.statementSql.size(), "closed statements are forgotten");
        assertEquals(connectionsInMap, Endpoints.connections.size(), "closed connections are forgotten");
        List<Span> spans = agent.spans();
        List<String> described = new ArrayList<>();
        for (Span s : spans) {
            described.add(s.name() + "|" + s.action() + "|" + s.subtype() + "|" + s.context().db().instance() + "|"
                    + s.context().db().user() + "|" + s.context().db().rowsAffected() + "|" + s.outcome());
        }
        assertEquals(List.of(
                "Driver.connect|connect|h2|" + db + "|sa|-1|" + Outcome.SUCCESS,
                "CREATE|query|h2|" + db + "|sa|-1|" + Outcome.SUCCESS,
                "INSERT INTO t|query|h2|" + db + "|sa|2|" + Outcome.SUCCESS,
                "SELECT FROM t|query|h2|" + db + "|sa|-1|" + Outcome.SUCCESS,
                "UPDATE t|exec|h2|" + db + "|sa|2|" + Outcome.SUCCESS,
                "SELECT FROM missing|query|h2|" + db + "|sa|-1|" + Outcome.FAILURE), described);
        ErrorEvent captured = agent.reporter().onlyError();
        assertSame(error[0], captured.exception());
    }
}
