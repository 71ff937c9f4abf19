package dev.apmagent.plugin.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Span;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pool over a {@code DataSource} that opens connections without {@code Driver.connect} (H2's
 * {@code JdbcDataSource}): the physical connection's URL is read with {@code getMetaData().getURL()} once, through the
 * pool's proxy, and cached for that physical connection; never once per statement or per checkout.
 */
class MetadataFallbackTest {

    private PluginAgent agent;
    private HikariDataSource pool;

    @BeforeEach
    void setUp() {
        agent = AbstractJdbcScenarios.installJdbc();
        // every borrow is a span: each must get the endpoint without a lookup of its own
        agent.startTracer(Collections.<String, Object>singletonMap(JdbcPlugin.CONNECTION_SPAN_MIN_DURATION.key(), 0L));
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:fallback;DB_CLOSE_DELAY=-1");
        h2.setUser("sa");
        pool = new HikariDataSource();
        pool.setDataSource(h2);
        pool.setMaximumPoolSize(1);
        pool.setMinimumIdle(1);
    }

    @AfterEach
    void tearDown() {
        pool.close();
        agent.uninstall();
        agent.stopTracer();
    }

    @Test
    void oneMetadataLookupPerPhysicalConnection() throws Exception {
        long before = AbstractJdbcScenarios.metadataLookups();
        agent.inTransaction(() -> {
            for (int i = 0; i < 10; i++) {
                try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + i)) {
                    assertTrue(rs.next());
                }
            }
            return null;
        });
        assertEquals(before + 1, AbstractJdbcScenarios.metadataLookups(), "one physical connection, one lookup");
        List<Span> spans = agent.spans();
        assertEquals(20, spans.size(), PluginAgent.describe(spans));
        for (Span span : spans) {
            assertEquals("h2", span.subtype(), span.name().toString());
            assertEquals("fallback", span.context().db().instance().toString());
        }
    }
}
