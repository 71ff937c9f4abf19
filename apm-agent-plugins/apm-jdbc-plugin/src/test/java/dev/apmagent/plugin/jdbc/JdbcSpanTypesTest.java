package dev.apmagent.plugin.jdbc;

import dev.apmagent.report.SpanTypeRules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Every vendor the URL parser can name is a db subtype all Elastic agents agree on (cross-agent span_types.json). */
class JdbcSpanTypesTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://db:5432/app", "jdbc:mysql://db/app", "jdbc:mariadb://db/app", "jdbc:h2:mem:app",
            "jdbc:oracle:thin:@db:1521:app", "jdbc:sqlserver://db;databaseName=app", "jdbc:db2://db:50000/app",
            "jdbc:sqlite:/tmp/app.db", "jdbc:derby:memory:app", "jdbc:hsqldb:mem:app", "jdbc:unheard-of://db/app", "garbage"})
    void everyVendorIsAKnownDbSubtype(String url) {
        String vendor = JdbcUrlParser.parse(url).vendor();
        assertNull(SpanTypeRules.fromSharedDir().violation("db", vendor), url + " -> " + vendor);
    }

    @org.junit.jupiter.api.Test
    void theRulesRejectWhatTheVectorsDoNotList() {
        SpanTypeRules rules = SpanTypeRules.fromSharedDir();
        assertNotNull(rules.violation("db", "not-a-database"));
        assertNotNull(rules.violation("db", null));
        assertNotNull(rules.violation("no-such-type", "x"));
        assertNull(rules.violation("app", null));
        assertNull(rules.violation("external", "dubbo"));
    }
}
