package dev.apmagent.plugin.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.trace.SharedVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlSignatureTest {

    /** Reports a visible skip (or, on CI, a failure) when the shared vectors are absent. */
    @Test
    void sharedVectorsPresent() {
        assertTrue(SharedVectors.read("sql_signature_examples.json").size() > 0);
    }

    static Stream<Arguments> sharedVectors() {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode c : SharedVectors.read("sql_signature_examples.json")) {
            cases.add(Arguments.of(c.get("input").asText(), c.get("output").asText()));
        }
        assertTrue(cases.size() >= 30, "expected the full vector file, got " + cases.size());
        return cases.stream();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("sharedVectors")
    void sharedVector(String sql, String expected) {
        assertEquals(expected, SqlSignature.of(sql));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "select * from users where id = ?                         | SELECT FROM users",
        "SELECT u.id FROM users u JOIN orders o ON o.u = u.id      | SELECT FROM users",
        "insert into orders(id) values (1)                        | INSERT INTO orders",
        "INSERT OR REPLACE INTO t VALUES (1)                      | INSERT INTO t",
        "REPLACE INTO t VALUES (1)                                | REPLACE INTO t",
        "MERGE INTO t USING s ON (1=1)                            | MERGE INTO t",
        "update orders set x = 1                                  | UPDATE orders",
        "UPDATE LOW_PRIORITY IGNORE db.t SET a=1                  | UPDATE db.t",
        "UPDATE \"ignore\" SET a=1                                | UPDATE ignore",
        "delete from t where a = 'x'                              | DELETE FROM t",
        "call proc(?, ?)                                          | CALL proc",
        "{call pkg.proc(?)}                                       | CALL pkg.proc",
        "{? = call fn(?)}                                         | CALL fn",
        "? garbage                                                | ?",
        "begin                                                    | BEGIN",
        "commit                                                   | COMMIT",
        "  /* leading */ -- line\\n select a from b               | SELECT FROM b",
        "(SELECT a FROM b) UNION (SELECT a FROM c)                | SELECT FROM b",
        "SELECT $$ FROM x $$ FROM real_table                      | SELECT FROM real_table",
        "SELECT $q$ it's FROM x $q$ FROM real_table               | SELECT FROM real_table",
        "SELECT 'a\\' FROM x' FROM real_table                     | SELECT FROM real_table",
        "SELECT 'it''s' FROM real_table                           | SELECT FROM real_table",
        "SELECT /* FROM /* nested */ x */ a FROM real_table       | SELECT FROM real_table",
        "SELECT * FROM [dbo].[Orders]                             | SELECT FROM dbo.Orders",
        "SELECT * FROM \"public\".\"my table\"                    | SELECT FROM public.my table",
        "SELECT * FROM schema.                                    | SELECT FROM schema",
        "WITH x AS (SELECT 1) SELECT * FROM x                     | WITH",
        "TRUNCATE TABLE t                                         | TRUNCATE",
        "-- only a comment                                        | -- only a comment",
        "(((                                                      | (((",
        "42                                                       | 42",
        "选择 FROM foo                                            | 选择",
    })
    void ownCases(String sql, String expected) {
        assertEquals(expected, SqlSignature.of(sql.replace("\\n", "\n")), sql);
    }

    @Test
    void nullAndBlankGiveEmpty() {
        assertEquals("", SqlSignature.of(null));
        assertEquals("", SqlSignature.of(" \t\n "));
    }

    @Test
    void appendsAfterExistingContentAndCapsLength() {
        StringBuilder sb = new StringBuilder("prefix:");
        new SqlSignature().appendTo("SELECT * FROM t", sb);
        assertEquals("prefix:SELECT FROM t", sb.toString());

        StringBuilder longName = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            longName.append('a');
        }
        String name = SqlSignature.of("SELECT * FROM " + longName);
        assertEquals(SqlSignature.MAX_NAME_LENGTH, name.length());
        assertTrue(name.startsWith("SELECT FROM aaa"));
    }

    @Test
    void appendToDoesNotAllocate() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        SqlSignature sig = new SqlSignature();
        StringBuilder sb = new StringBuilder(512);
        String[] sqls = {
            "SELECT *,(SELECT COUNT(*) FROM table2) AS c FROM table1 WHERE f = 'v' -- x",
            "INSERT LOW_PRIORITY IGNORE INTO foo.bar (col) VALUES(?)",
            "UPDATE ONLY foo AS bar SET baz=$q$ x $q$",
            "/* a /* b */ */ DELETE FROM [x].\"y\" WHERE 1.5e3 = $1",
            "ALTER TABLE foo ADD ()",
        };
        for (int i = 0; i < 20_000; i++) {
            sb.setLength(0);
            sig.appendTo(sqls[i % sqls.length], sb);
        }
        long tid = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 10_000; i++) {
            sb.setLength(0);
            sig.appendTo(sqls[i % sqls.length], sb);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        // the measurement itself may allocate a little; 10k parses allocating even 8 bytes each would be 80 KB
        assertTrue(allocated < 4096, "appendTo allocated " + allocated + " bytes over 10k calls");
    }
}
