package dev.apmagent.plugin.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JdbcUrlParserTest {

    /** url | vendor | host | port | database | user ; empty cells are null, port -1 is none. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // postgresql
        "jdbc:postgresql:orders                                             | postgresql | localhost | 5432 | orders | ",
        "jdbc:postgresql:/                                                  | postgresql | localhost | 5432 | /      | ",
        "jdbc:postgresql://db.example.com/orders                            | postgresql | db.example.com | 5432 | orders | ",
        "jdbc:postgresql://db.example.com:5433/orders?user=app&ssl=true     | postgresql | db.example.com | 5433 | orders | app",
        "jdbc:postgresql://h1:5433,h2:5434/orders?targetServerType=primary  | postgresql | h1   | 5433 | orders | ",
        "jdbc:postgresql://[::1]:5740/accounting                            | postgresql | ::1  | 5740 | accounting | ",
        "jdbc:postgresql:///orders                                          | postgresql | localhost | 5432 | orders | ",
        "jdbc:postgresql://localhost/                                       | postgresql | localhost | 5432 |  | ",
        "JDBC:PostgreSQL://Host:1/DB?ssl=true&USER=x                        | postgresql | Host | 1    | DB     | x",
        "jdbc:p6spy:postgresql://db:5432/orders                             | postgresql | db   | 5432 | orders | ",
        "jdbc:otel:postgresql://db/orders                                   | postgresql | db   | 5432 | orders | ",
        // mysql / mariadb
        "jdbc:mysql://db:3307/shop?user=root&password=secret                | mysql      | db   | 3307 | shop   | root",
        "jdbc:mysql://db/shop                                               | mysql      | db   | 3306 | shop   | ",
        "jdbc:mysql:///shop                                                 | mysql      | localhost | 3306 | shop | ",
        "jdbc:mysql://                                                      | mysql      | localhost | 3306 |  | ",
        "jdbc:mysql://alice:pw@db:3310/shop                                 | mysql      | db   | 3310 | shop   | alice",
        "jdbc:mysql://h1:3307,h2:3308/shop?failOverReadOnly=false           | mysql      | h1   | 3307 | shop   | ",
        "jdbc:mysql:replication://master,slave1,slave2/shop                 | mysql      | master | 3306 | shop | ",
        "jdbc:mysql:loadbalance://lb1:3311,lb2:3312/shop?user=u             | mysql      | lb1  | 3311 | shop   | u",
        "jdbc:mysql://address=(host=myhost)(port=1111)(key1=value1)/db      | mysql      | myhost | 1111 | db   | ",
        "jdbc:mysql://address=(protocol=tcp)(host=h)(user=bob),other/db     | mysql      | h    | 3306 | db     | bob",
        "jdbc:mysql://(host=myhost,port=1111,user=carol)/db                 | mysql      | myhost | 1111 | db   | carol",
        "jdbc:mysql://[(host=a,port=1),(host=b,port=2)]/db                  | mysql      | a    | 1    | db     | ",
        "jdbc:mysql://[a:5,b:6]/db                                          | mysql      | a    | 5    | db     | ",
        "jdbc:mysql://[::1]:3309/db                                         | mysql      | ::1  | 3309 | db     | ",
        "jdbc:mysql+srv://_mysql._tcp.example.com/db                        | mysql      | _mysql._tcp.example.com | 3306 | db | ",
        "jdbc:mysqlx://db:33060/shop                                        | mysql      | db   | 33060 | shop  | ",
        "jdbc:mariadb://db:3306/shop?user=root                              | mariadb    | db   | 3306 | shop   | root",
        "jdbc:mariadb://db/shop                                             | mariadb    | db   | 3306 | shop   | ",
        "jdbc:mariadb:replication://m:3307,s/shop                           | mariadb    | m    | 3307 | shop   | ",
        "jdbc:mariadb:sequential://h1,h2/shop                               | mariadb    | h1   | 3306 | shop   | ",
        "jdbc:mariadb:aurora://cluster.rds.amazonaws.com/shop               | mariadb    | cluster.rds.amazonaws.com | 3306 | shop | ",
        "jdbc:mariadb://address=(host=h)(port=3320)(type=master)/shop       | mariadb    | h    | 3320 | shop   | ",
        // h2
        "jdbc:h2:mem:                                                       | h2 |  | -1 |  | ",
        "jdbc:h2:mem:test                                                   | h2 |  | -1 | test | ",
        "jdbc:h2:mem:test;DB_CLOSE_DELAY=-1;USER=sa                         | h2 |  | -1 | test | sa",
        "jdbc:h2:~/test                                                     | h2 |  | -1 | ~/test | ",
        "jdbc:h2:file:/data/sample                                          | h2 |  | -1 | /data/sample | ",
        "jdbc:h2:file:C:/data/sample;AUTO_SERVER=TRUE                       | h2 |  | -1 | C:/data/sample | ",
        "jdbc:h2:./test;user=me                                             | h2 |  | -1 | ./test | me",
        "jdbc:h2:tcp://localhost/~/test                                     | h2 | localhost | 9092 | ~/test | ",
        "jdbc:h2:tcp://dbserv:8084/~/sample                                 | h2 | dbserv | 8084 | ~/sample | ",
        "jdbc:h2:ssl://localhost:8085/~/sample                              | h2 | localhost | 8085 | ~/sample | ",
        "jdbc:h2:tcp://localhost/mem:test                                   | h2 | localhost | 9092 | test | ",
        "jdbc:h2:zip:~/db.zip!/test                                         | h2 |  | -1 | zip:~/db.zip!/test | ",
        // oracle
        "jdbc:oracle:thin:@db:1521:ORCL                                     | oracle | db | 1521 | ORCL | ",
        "jdbc:oracle:thin:@db:1522:ORCL                                     | oracle | db | 1522 | ORCL | ",
        "jdbc:oracle:thin:@//db:1523/sales.example.com                      | oracle | db | 1523 | sales.example.com | ",
        "jdbc:oracle:thin:@//db/sales                                       | oracle | db | 1521 | sales | ",
        "jdbc:oracle:thin:@db:1524/sales                                    | oracle | db | 1524 | sales | ",
        "jdbc:oracle:thin:@db/sales:dedicated                               | oracle | db | 1521 | sales | ",
        "jdbc:oracle:thin:@db                                               | oracle | db | 1521 |  | ",
        "jdbc:oracle:thin:@db:1525                                          | oracle | db | 1525 |  | ",
        "jdbc:oracle:thin:scott/tiger@db:1521:ORCL                          | oracle | db | 1521 | ORCL | scott",
        "jdbc:oracle:thin:@tcps://db.cloud:1522/svc_high?wallet_location=/w | oracle | db.cloud | 1522 | svc_high | ",
        "jdbc:oracle:thin:@[::1]:1526:XE                                    | oracle | ::1 | 1526 | XE | ",
        "jdbc:oracle:oci:@db:1521:ORCL                                      | oracle | db | 1521 | ORCL | ",
        "jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=tnshost)(PORT=1530))(CONNECT_DATA=(SERVICE_NAME=svc))) | oracle | tnshost | 1530 | svc | ",
        "jdbc:oracle:thin:@(description=(address_list=(address=(protocol=tcp)(host=a)(port=1531))(address=(host=b)(port=1532)))(connect_data=(sid=orcl))) | oracle | a | 1531 | orcl | ",
        "jdbc:oracle:thin:@ ( DESCRIPTION = (ADDRESS = (HOST = spaced ) ) (CONNECT_DATA = (SERVICE_NAME = s1 ) ) ) | oracle | spaced | 1521 | s1 | ",
        "jdbc:oracle:thin:                                                  | oracle |  | -1 |  | ",
        // sqlserver
        "jdbc:sqlserver://sql:1433;databaseName=shop;user=sa;password=x     | sqlserver | sql | 1433 | shop | sa",
        "jdbc:sqlserver://sql;database=shop                                 | sqlserver | sql | 1433 | shop | ",
        "jdbc:sqlserver://sql:1500                                          | sqlserver | sql | 1500 |  | ",
        "jdbc:sqlserver://sql\\\\SQLEXPRESS;databaseName=shop               | sqlserver | sql | -1 | shop | ",
        "jdbc:sqlserver://sql\\\\SQLEXPRESS:1501;databaseName=shop          | sqlserver | sql | 1501 | shop | ",
        "jdbc:sqlserver://;serverName=srv;portNumber=1502;databaseName=d;userName=u | sqlserver | srv | 1502 | d | u",
        "jdbc:sqlserver://;serverName=srv\\\\inst;databaseName=d             | sqlserver | srv | -1 | d | ",
        "jdbc:sqlserver://[::1]:1503;encrypt=true;DatabaseName=d            | sqlserver | ::1 | 1503 | d | ",
        "jdbc:jtds:sqlserver://sql:1504/shop;user=u;instance=i              | sqlserver | sql | 1504 | shop | u",
        "jdbc:jtds:sqlserver://sql/shop                                     | sqlserver | sql | 1433 | shop | ",
        // db2
        "jdbc:db2://db2host:50001/SAMPLE:user=db2inst1;password=x;          | db2 | db2host | 50001 | SAMPLE | db2inst1",
        "jdbc:db2://db2host/SAMPLE                                          | db2 | db2host | 50000 | SAMPLE | ",
        "jdbc:db2:SAMPLE                                                    | db2 |  | -1 | SAMPLE | ",
        "jdbc:db2:SAMPLE:user=u;                                            | db2 |  | -1 | SAMPLE | u",
        // sqlite
        "jdbc:sqlite:/home/app/data.db                                      | sqlite |  | -1 | /home/app/data.db | ",
        "jdbc:sqlite:C:/work/mydb.db                                        | sqlite |  | -1 | C:/work/mydb.db | ",
        "jdbc:sqlite:sample.db                                              | sqlite |  | -1 | sample.db | ",
        "jdbc:sqlite::memory:                                               | sqlite |  | -1 |  | ",
        "jdbc:sqlite:                                                       | sqlite |  | -1 |  | ",
        "jdbc:sqlite:file:memdb1?mode=memory&cache=shared                   | sqlite |  | -1 | memdb1 | ",
        "jdbc:sqlite:file::memory:?cache=shared                             | sqlite |  | -1 |  | ",
        // derby
        "jdbc:derby:memory:myDB;create=true                                 | derby |  | -1 | myDB | ",
        "jdbc:derby:myDB;create=true;user=me                                | derby |  | -1 | myDB | me",
        "jdbc:derby:/opt/dbs/myDB                                           | derby |  | -1 | /opt/dbs/myDB | ",
        "jdbc:derby:directory:myDB                                          | derby |  | -1 | myDB | ",
        "jdbc:derby:classpath:dbs/myDB                                      | derby |  | -1 | dbs/myDB | ",
        "jdbc:derby:jar:(/lib/dbs.jar)products/boiledfood                   | derby |  | -1 | products/boiledfood | ",
        "jdbc:derby://dbhost:1528/myDB;create=true;user=me;password=x       | derby | dbhost | 1528 | myDB | me",
        "jdbc:derby://dbhost/myDB                                           | derby | dbhost | 1527 | myDB | ",
        // hsqldb
        "jdbc:hsqldb:mem:mymemdb                                            | hsqldb |  | -1 | mymemdb | ",
        "jdbc:hsqldb:mem:mymemdb;user=SA                                    | hsqldb |  | -1 | mymemdb | SA",
        "jdbc:hsqldb:file:/opt/db/testdb;ifexists=true                      | hsqldb |  | -1 | /opt/db/testdb | ",
        "jdbc:hsqldb:res:org.my.path.resdb                                  | hsqldb |  | -1 | org.my.path.resdb | ",
        "jdbc:hsqldb:hsql://localhost/xdb                                   | hsqldb | localhost | 9001 | xdb | ",
        "jdbc:hsqldb:hsql://dbhost:9002/                                    | hsqldb | dbhost | 9002 |  | ",
        "jdbc:hsqldb:hsqls://dbhost/xdb                                     | hsqldb | dbhost | 554 | xdb | ",
        "jdbc:hsqldb:http://dbhost/xdb                                      | hsqldb | dbhost | 80 | xdb | ",
        "jdbc:hsqldb:https://dbhost:8443/xdb                                | hsqldb | dbhost | 8443 | xdb | ",
        // other vendors: what the authority says, vendor unknown
        "jdbc:clickhouse://ch:8123/events                                   | unknown | ch | 8123 | events | ",
        "jdbc:snowflake://acct.snowflakecomputing.com/?db=x                 | unknown | acct.snowflakecomputing.com | -1 |  | ",
    })
    void parses(String url, String vendor, String host, int port, String database, String user) {
        ConnectionInfo info = JdbcUrlParser.parse(url.replace("\\\\", "\\"));
        assertEquals(new ConnectionInfo(vendor, host, port, database, user), info, url);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "   ", "garbage", "jdbc", "jdbc:", "jdbc:::", "jdbc:foo", "jdbc:foo:bar", "http://host:80/x", "jdbc:unknown:x",
        "jdbc://", "jdbc:x://", "\u0000\uffff", "mysql://db/shop", "jdbc:jtds:sybase:",
    })
    void garbageIsUnknown(String url) {
        assertSame(ConnectionInfo.UNKNOWN, JdbcUrlParser.parse(url));
    }

    @Test
    void valueEqualityCoversEveryField() {
        ConnectionInfo a = new ConnectionInfo("h2", "h", 1, "d", "u");
        assertEquals(a, new ConnectionInfo("h2", "h", 1, "d", "u"));
        assertEquals(a.hashCode(), new ConnectionInfo("h2", "h", 1, "d", "u").hashCode());
        assertTrue(!a.equals(new ConnectionInfo("h2", "h", 1, "d", null)));
        assertTrue(!a.equals(new ConnectionInfo("h2", "h", 2, "d", "u")));
        assertTrue(!a.equals(new ConnectionInfo("h2", null, 1, "d", "u")));
        assertTrue(!a.equals(new ConnectionInfo("h2", "h", 1, "x", "u")));
        assertTrue(!a.equals(new ConnectionInfo("db2", "h", 1, "d", "u")));
    }

    @Test
    void nullIsUnknown() {
        assertSame(ConnectionInfo.UNKNOWN, JdbcUrlParser.parse(null));
        assertEquals("unknown", ConnectionInfo.UNKNOWN.vendor());
        assertEquals(ConnectionInfo.NO_PORT, ConnectionInfo.UNKNOWN.port());
    }

    @Test
    void mutatedUrlsNeverThrow() {
        String[] seeds = {
            "jdbc:postgresql://[::1]:5740/accounting?user=x",
            "jdbc:mysql://address=(host=myhost)(port=1111)/db",
            "jdbc:mysql://[(host=a,port=1),(host=b,port=2)]/db",
            "jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))",
            "jdbc:oracle:thin:scott/tiger@[::1]:1526:XE",
            "jdbc:sqlserver://sql\\SQLEXPRESS:1501;databaseName=shop",
            "jdbc:db2://db2host:50001/SAMPLE:user=db2inst1;",
            "jdbc:h2:tcp://localhost/mem:test;USER=sa",
            "jdbc:derby:jar:(/lib/dbs.jar)products",
            "jdbc:hsqldb:hsql://dbhost:9002/x;user=u",
        };
        String noise = "[]()@:;/\\,=?&. x9";
        Random r = new Random(0xDB0L);
        for (int i = 0; i < 50_000; i++) {
            StringBuilder sb = new StringBuilder(seeds[r.nextInt(seeds.length)]);
            int mutations = 1 + r.nextInt(4);
            for (int m = 0; m < mutations && sb.length() > 0; m++) {
                int at = r.nextInt(sb.length());
                switch (r.nextInt(3)) {
                    case 0:
                        sb.setCharAt(at, noise.charAt(r.nextInt(noise.length())));
                        break;
                    case 1:
                        sb.insert(at, noise.charAt(r.nextInt(noise.length())));
                        break;
                    default:
                        sb.setLength(at);
                        break;
                }
            }
            ConnectionInfo info = JdbcUrlParser.parse(sb.toString());
            assertNotNull(info);
            assertTrue(info.port() == ConnectionInfo.NO_PORT || (info.port() > 0 && info.port() <= 65535), sb::toString);
        }
    }
}
