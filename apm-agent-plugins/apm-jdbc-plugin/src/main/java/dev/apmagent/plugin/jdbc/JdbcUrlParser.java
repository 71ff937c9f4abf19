package dev.apmagent.plugin.jdbc;

/**
 * Reads vendor, host, port, database and user from a JDBC URL, covering the shapes each vendor's driver documents:
 * <ul>
 *   <li>postgresql: {@code jdbc:postgresql:db}, {@code //host:port/db?user=u}, multi-host {@code //h1:1,h2:2/db},
 *   {@code //[::1]:5432/db}, {@code ///db};</li>
 *   <li>mysql / mariadb: {@code //user:pw@host:port/db?user=u}, modes {@code replication:}, {@code loadbalance:},
 *   {@code failover:}, {@code sequential:}, {@code aurora:}, {@code mysql+srv}, {@code mysqlx}, the forms
 *   {@code address=(host=h)(port=p)}, {@code (host=h,port=p)} and {@code [h1,h2]};</li>
 *   <li>h2: {@code mem:name}, {@code file:path}, plain paths, {@code tcp://} and {@code ssl://} (server port 9092),
 *   settings such as {@code ;USER=sa};</li>
 *   <li>oracle: {@code thin:@host:port:sid}, {@code @host:port/service}, {@code @//host:port/service},
 *   {@code @tcp(s)://host:port/service}, {@code thin:user/pw@...}, TNS descriptors
 *   {@code (DESCRIPTION=(ADDRESS=(HOST=h)(PORT=p))(CONNECT_DATA=(SERVICE_NAME=s)))} (first address; SID too);</li>
 *   <li>sqlserver: {@code //host\instance:port;databaseName=db;user=u}, {@code serverName=}/{@code portNumber=}
 *   properties, {@code jdbc:jtds:sqlserver://host:port/db};</li>
 *   <li>db2: {@code //host:port/db:user=u;} and the local {@code db2:alias};</li>
 *   <li>sqlite: file paths, {@code file:} URIs, {@code :memory:};</li>
 *   <li>derby: embedded {@code derby:[memory:|directory:]db;create=true} and network {@code //host:port/db};</li>
 *   <li>hsqldb: {@code mem:}, {@code file:}, {@code res:}, {@code hsql://} (9001), {@code hsqls://} (554),
 *   {@code http(s)://}.</li>
 * </ul>
 * Wrappers {@code jdbc:p6spy:}, {@code jdbc:log4jdbc:} and {@code jdbc:otel:} are looked through. Default ports:
 * postgresql 5432, mysql/mariadb 3306, oracle 1521, sqlserver 1433 (none for a named instance without a port),
 * db2 50000, derby network 1527; embedded and in-memory databases have no host and no port. Another
 * {@code jdbc:x://host:port/db} URL gives vendor unknown with what its authority says; null, blank and garbage give
 * {@link ConnectionInfo#UNKNOWN}. Never throws; no regular expressions. Meant to run once per connection (it
 * allocates its result and a few substrings), never per statement.
 *
 * <pre>{@code
 * JdbcUrlParser.parse("jdbc:postgresql://db1:5433/orders?user=app")   // postgresql|db1|5433|orders|app
 * }</pre>
 */
public final class JdbcUrlParser {

    private static final String[] WRAPPERS = {"p6spy:", "log4jdbc:", "otel:"};
    private static final String[] MYSQL_MODES = {"replication:", "loadbalance:", "failover:", "sequential:", "aurora:"};
    private static final String[] DERBY_SUBPROTOCOLS = {"memory:", "directory:", "classpath:"};
    private static final String[] HSQLDB_NETWORK = {"hsql://", "hsqls://", "http://", "https://"};
    private static final int[] HSQLDB_PORTS = {9001, 554, 80, 443};
    private static final String[] HSQLDB_LOCAL = {"mem:", "file:", "res:"};

    private JdbcUrlParser() {
    }

    /** Parses {@code url}; {@link ConnectionInfo#UNKNOWN} for null, blank or unrecognisable input. */
    public static ConnectionInfo parse(String url) {
        if (url == null) {
            return ConnectionInfo.UNKNOWN;
        }
        try {
            return new Parse(url.trim()).run();
        } catch (RuntimeException e) {
            // barrier: a parser bug must never reach the application; treat the URL as unknown
            return ConnectionInfo.UNKNOWN;
        }
    }

    /** One parse: the input and the fields found so far. */
    private static final class Parse {
        private final String s;
        private final int n;
        private String vendor = ConnectionInfo.UNKNOWN_VENDOR;
        private String host;
        private int port = ConnectionInfo.NO_PORT;
        private String database;
        private String user;

        Parse(String s) {
            this.s = s;
            this.n = s.length();
        }

        ConnectionInfo run() {
            if (!startsWith(0, "jdbc:")) {
                return ConnectionInfo.UNKNOWN;
            }
            int p = 5;
            for (int w = 0; w < WRAPPERS.length; w++) {
                if (startsWith(p, WRAPPERS[w])) {
                    p += WRAPPERS[w].length();
                    w = -1; // wrappers may nest
                }
            }
            int colon = s.indexOf(':', p);
            if (colon < 0) {
                return ConnectionInfo.UNKNOWN;
            }
            int rest = colon + 1;
            if (is(p, colon, "postgresql") || is(p, colon, "pgsql")) {
                vendor = "postgresql";
                postgresql(rest);
            } else if (is(p, colon, "mysql") || is(p, colon, "mysql+srv") || is(p, colon, "mysqlx")) {
                vendor = "mysql";
                mysql(rest);
            } else if (is(p, colon, "mariadb")) {
                vendor = "mariadb";
                mysql(rest);
            } else if (is(p, colon, "h2")) {
                vendor = "h2";
                h2(rest);
            } else if (is(p, colon, "oracle")) {
                vendor = "oracle";
                oracle(rest);
            } else if (is(p, colon, "sqlserver")) {
                vendor = "sqlserver";
                sqlserver(rest);
            } else if (is(p, colon, "jtds") && startsWith(rest, "sqlserver:")) {
                vendor = "sqlserver";
                jtds(rest + "sqlserver:".length());
            } else if (is(p, colon, "db2")) {
                vendor = "db2";
                db2(rest);
            } else if (is(p, colon, "sqlite")) {
                vendor = "sqlite";
                sqlite(rest);
            } else if (is(p, colon, "derby")) {
                vendor = "derby";
                derby(rest);
            } else if (is(p, colon, "hsqldb")) {
                vendor = "hsqldb";
                hsqldb(rest);
            } else {
                generic(rest);
            }
            if (ConnectionInfo.UNKNOWN_VENDOR.equals(vendor) && host == null && database == null && user == null) {
                return ConnectionInfo.UNKNOWN;
            }
            return new ConnectionInfo(vendor, host, port, database, user);
        }

        // ---------------------------------------------------------------- vendors

        private void postgresql(int p) {
            int queryStart = indexOf('?', p, n);
            int end = queryStart < 0 ? n : queryStart;
            if (startsWith(p, "//")) {
                int authEnd = indexOfAny(p + 2, end, '/');
                authority(p + 2, authEnd, "localhost", 5432);
                if (authEnd < end) {
                    database = nonEmpty(authEnd + 1, end);
                }
            } else {
                host = "localhost";
                port = 5432;
                database = nonEmpty(p, end);
            }
            if (queryStart >= 0) {
                String u = param(queryStart + 1, n, "user", '&');
                if (u != null) {
                    user = u;
                }
            }
        }

        private void mysql(int p) {
            for (int m = 0; m < MYSQL_MODES.length; m++) {
                if (startsWith(p, MYSQL_MODES[m])) {
                    p += MYSQL_MODES[m].length();
                    break;
                }
            }
            if (!startsWith(p, "//")) {
                return;
            }
            p += 2;
            int authEnd = p;
            int depth = 0;
            while (authEnd < n) {
                char c = s.charAt(authEnd);
                if (c == '(' || c == '[') {
                    depth++;
                } else if ((c == ')' || c == ']') && depth > 0) {
                    depth--;
                } else if (depth == 0 && (c == '/' || c == '?')) {
                    break;
                }
                authEnd++;
            }
            mysqlHost(p, authEnd);
            if (host == null) {
                host = "localhost";
            }
            if (port == ConnectionInfo.NO_PORT) {
                port = 3306;
            }
            int queryStart = indexOf('?', authEnd, n);
            int pathEnd = queryStart < 0 ? n : queryStart;
            if (authEnd < n && s.charAt(authEnd) == '/') {
                database = nonEmpty(authEnd + 1, pathEnd);
            }
            if (queryStart >= 0) {
                String u = param(queryStart + 1, n, "user", '&');
                if (u != null) {
                    user = u;
                }
            }
        }

        /** The first host of a MySQL/MariaDB host list in {@code [from, to)}. */
        private void mysqlHost(int from, int to) {
            from = skipSpaces(from, to);
            if (from >= to) {
                return;
            }
            if (startsWith(from, "address=")) {
                int close = from + 8;
                while (close < to && s.charAt(close) == '(') {
                    close = matching(close, to);
                }
                host = parenValue(from, close, "host");
                port = parsePort(parenValue(from, close, "port"), ConnectionInfo.NO_PORT);
                setUserIfAbsent(parenValue(from, close, "user"));
                return;
            }
            char c = s.charAt(from);
            if (c == '(') {
                int close = matching(from, to);
                host = param(from + 1, close - 1, "host", ',');
                port = parsePort(param(from + 1, close - 1, "port", ','), ConnectionInfo.NO_PORT);
                setUserIfAbsent(param(from + 1, close - 1, "user", ','));
                return;
            }
            int close = c == '[' ? matching(from, to) : from;
            if (c == '[' && (indexOf(',', from, close) >= 0 || indexOf('(', from, close) >= 0)) {
                // a host sub-list: [h1:1, h2:2] or [(host=h,..),(..)]
                int inner = from + 1;
                int firstEnd = inner;
                int depth = 0;
                while (firstEnd < close - 1) {
                    char d = s.charAt(firstEnd);
                    if (d == '(' || d == '[') {
                        depth++;
                    } else if (d == ')' || d == ']') {
                        depth--;
                    } else if (d == ',' && depth == 0) {
                        break;
                    }
                    firstEnd++;
                }
                mysqlHost(inner, firstEnd);
                return;
            }
            authority(from, to, null, ConnectionInfo.NO_PORT);
        }

        private void h2(int p) {
            int semi = indexOf(';', p, n);
            int end = semi < 0 ? n : semi;
            if (semi >= 0) {
                user = param(semi + 1, n, "user", ';');
            }
            if (startsWith(p, "tcp://") || startsWith(p, "ssl://")) {
                int a = p + 6;
                int authEnd = indexOfAny(a, end, '/');
                authority(a, authEnd, null, 9092);
                if (authEnd < end) {
                    database = h2Name(authEnd + 1, end);
                }
                return;
            }
            database = h2Name(p, end);
        }

        private String h2Name(int from, int to) {
            if (startsWith(from, "mem:")) {
                from += 4;
            } else if (startsWith(from, "file:")) {
                from += 5;
            }
            return nonEmpty(from, to);
        }

        private void oracle(int p) {
            int at = indexOf('@', p, n);
            if (at < 0) {
                return;
            }
            // before '@': driver type (thin: / oci: / oci8: / kprb:) and optionally user/password
            int typeEnd = indexOf(':', p, at);
            if (typeEnd >= 0 && typeEnd + 1 < at) {
                int slash = indexOf('/', typeEnd + 1, at);
                user = nonEmpty(typeEnd + 1, slash < 0 ? at : slash);
            }
            int t = skipSpaces(at + 1, n);
            if (t < n && s.charAt(t) == '(') {
                oracleDescriptor(t, n);
                return;
            }
            int q = indexOf('?', t, n);
            int end = q < 0 ? n : q;
            if (startsWith(t, "tcp://")) {
                t += 6;
            } else if (startsWith(t, "tcps://")) {
                t += 7;
            } else if (startsWith(t, "ldap://") || startsWith(t, "ldaps://")) {
                t += startsWith(t, "ldap://") ? 7 : 8;
                int authEnd = indexOfAny(t, end, '/');
                authority(t, authEnd, null, 389);
                if (authEnd < end) {
                    int comma = indexOf(',', authEnd + 1, end);
                    database = nonEmpty(authEnd + 1, comma < 0 ? end : comma);
                }
                return;
            } else if (startsWith(t, "//")) {
                t += 2;
            }
            // EZConnect host[:port][/service[:server][/instance]] or the old host:port:sid
            int slash = indexOf('/', t, end);
            if (slash >= 0) {
                authority(t, slash, null, 1521);
                int serviceEnd = indexOfAny(slash + 1, end, ':', '/');
                database = nonEmpty(slash + 1, serviceEnd);
                return;
            }
            int hostEnd = t < end && s.charAt(t) == '[' ? indexOf(']', t, end) + 1 : t;
            int c1 = indexOf(':', Math.max(hostEnd, t), end);
            int c2 = c1 < 0 ? -1 : indexOf(':', c1 + 1, end);
            if (c2 >= 0) {
                authority(t, c2, null, 1521);
                database = nonEmpty(c2 + 1, end);
            } else {
                authority(t, end, null, 1521);
            }
        }

        private void oracleDescriptor(int from, int to) {
            int address = indexOfIgnoreCase("(address", from, to);
            int scope = address < 0 ? from : address;
            host = parenValue(scope, to, "host");
            String p = parenValue(scope, to, "port");
            port = parsePort(p, 1521);
            String service = parenValue(from, to, "service_name");
            database = service != null ? service : parenValue(from, to, "sid");
        }

        private void sqlserver(int p) {
            if (!startsWith(p, "//")) {
                return;
            }
            p += 2;
            int semi = indexOf(';', p, n);
            int serverEnd = semi < 0 ? n : semi;
            int propsFrom = semi < 0 ? n : semi + 1;
            String instance = null;
            int backslash = indexOf('\\', p, serverEnd);
            boolean explicitPort;
            if (backslash >= 0) {
                int colon = indexOf(':', backslash, serverEnd);
                host = nonEmpty(p, backslash);
                instance = nonEmpty(backslash + 1, colon < 0 ? serverEnd : colon);
                port = colon < 0 ? ConnectionInfo.NO_PORT : parsePort(substring(colon + 1, serverEnd), -1);
                explicitPort = colon >= 0;
            } else {
                authority(p, serverEnd, null, ConnectionInfo.NO_PORT);
                explicitPort = port != ConnectionInfo.NO_PORT;
            }
            if (host == null) {
                host = param(propsFrom, n, "serverName", ';');
                if (host != null) {
                    int bs = host.indexOf('\\');
                    if (bs >= 0) {
                        instance = bs + 1 < host.length() ? host.substring(bs + 1) : null;
                        host = bs > 0 ? host.substring(0, bs) : null;
                    }
                }
            }
            if (instance == null) {
                instance = param(propsFrom, n, "instanceName", ';');
            }
            if (!explicitPort) {
                String portNumber = param(propsFrom, n, "portNumber", ';');
                if (portNumber == null) {
                    portNumber = param(propsFrom, n, "port", ';');
                }
                port = parsePort(portNumber, instance == null ? 1433 : ConnectionInfo.NO_PORT);
            }
            database = param(propsFrom, n, "databaseName", ';');
            if (database == null) {
                database = param(propsFrom, n, "database", ';');
            }
            user = param(propsFrom, n, "user", ';');
            if (user == null) {
                user = param(propsFrom, n, "userName", ';');
            }
        }

        private void jtds(int p) {
            if (!startsWith(p, "//")) {
                return;
            }
            p += 2;
            int semi = indexOf(';', p, n);
            int end = semi < 0 ? n : semi;
            int authEnd = indexOfAny(p, end, '/');
            authority(p, authEnd, null, 1433);
            if (authEnd < end) {
                database = nonEmpty(authEnd + 1, end);
            }
            if (semi >= 0) {
                user = param(semi + 1, n, "user", ';');
            }
        }

        private void db2(int p) {
            if (startsWith(p, "//")) {
                p += 2;
                int authEnd = indexOfAny(p, n, '/');
                authority(p, authEnd, null, 50000);
                if (authEnd < n) {
                    int dbEnd = indexOfAny(authEnd + 1, n, ':', ';', '?');
                    database = nonEmpty(authEnd + 1, dbEnd);
                    if (dbEnd < n) {
                        user = param(dbEnd + 1, n, "user", ';');
                    }
                }
                return;
            }
            int dbEnd = indexOfAny(p, n, ':', ';');
            database = nonEmpty(p, dbEnd);
            if (dbEnd < n) {
                user = param(dbEnd + 1, n, "user", ';');
            }
        }

        private void sqlite(int p) {
            int q = indexOf('?', p, n);
            int end = q < 0 ? n : q;
            if (startsWith(p, "file:")) {
                p += 5;
            }
            String name = nonEmpty(p, end);
            database = name == null || ":memory:".equals(name) ? null : name;
        }

        private void derby(int p) {
            int semi = indexOf(';', p, n);
            int end = semi < 0 ? n : semi;
            if (semi >= 0) {
                user = param(semi + 1, n, "user", ';');
            }
            if (startsWith(p, "//")) {
                p += 2;
                int authEnd = indexOfAny(p, end, '/');
                authority(p, authEnd, null, 1527);
                if (authEnd < end) {
                    database = nonEmpty(authEnd + 1, end);
                }
                return;
            }
            for (int i = 0; i < DERBY_SUBPROTOCOLS.length; i++) {
                if (startsWith(p, DERBY_SUBPROTOCOLS[i])) {
                    p += DERBY_SUBPROTOCOLS[i].length();
                    break;
                }
            }
            if (startsWith(p, "jar:")) {
                int close = indexOf(')', p, end);
                p = close < 0 ? p + 4 : close + 1;
            }
            database = nonEmpty(p, end);
        }

        private void hsqldb(int p) {
            int semi = indexOf(';', p, n);
            int end = semi < 0 ? n : semi;
            if (semi >= 0) {
                user = param(semi + 1, n, "user", ';');
            }
            for (int i = 0; i < HSQLDB_NETWORK.length; i++) {
                if (startsWith(p, HSQLDB_NETWORK[i])) {
                    int a = p + HSQLDB_NETWORK[i].length();
                    int authEnd = indexOfAny(a, end, '/');
                    authority(a, authEnd, null, HSQLDB_PORTS[i]);
                    if (authEnd < end) {
                        database = nonEmpty(authEnd + 1, end);
                    }
                    return;
                }
            }
            for (int i = 0; i < HSQLDB_LOCAL.length; i++) {
                if (startsWith(p, HSQLDB_LOCAL[i])) {
                    p += HSQLDB_LOCAL[i].length();
                    break;
                }
            }
            database = nonEmpty(p, end);
        }

        /** jdbc:other://[user@]host[:port][/db][?...]: what the authority and path say; the vendor stays unknown. */
        private void generic(int p) {
            int slashes = s.indexOf("//", p);
            if (slashes < 0 || slashes > p + 32) {
                return;
            }
            int a = slashes + 2;
            int authEnd = indexOfAny(a, n, '/', '?', ';');
            authority(a, authEnd, null, ConnectionInfo.NO_PORT);
            if (authEnd < n && s.charAt(authEnd) == '/') {
                database = nonEmpty(authEnd + 1, indexOfAny(authEnd + 1, n, '?', ';', '/'));
            }
        }

        // ---------------------------------------------------------------- shared pieces

        /**
         * {@code [user[:password]@]host[:port][,more hosts]} in {@code [from, to)}: the first host, IPv6 in brackets;
         * sets host (or {@code defaultHost} when empty), port (or {@code defaultPort}) and user.
         */
        private void authority(int from, int to, String defaultHost, int defaultPort) {
            int at = lastIndexOf('@', from, to);
            if (at >= 0) {
                int colon = indexOf(':', from, at);
                setUserIfAbsent(nonEmpty(from, colon < 0 ? at : colon));
                from = at + 1;
            }
            int comma = indexOf(',', from, to);
            int end = comma < 0 ? to : comma;
            from = skipSpaces(from, end);
            String h;
            String portText = null;
            if (from < end && s.charAt(from) == '[') {
                int close = indexOf(']', from, end);
                if (close < 0) {
                    h = nonEmpty(from + 1, end);
                } else {
                    h = nonEmpty(from + 1, close);
                    if (close + 1 < end && s.charAt(close + 1) == ':') {
                        portText = substring(close + 2, end);
                    }
                }
            } else {
                int colon = indexOf(':', from, end);
                if (colon >= 0 && indexOf(':', colon + 1, end) < 0) {
                    h = nonEmpty(from, colon);
                    portText = substring(colon + 1, end);
                } else {
                    h = nonEmpty(from, end); // no port, or a bare IPv6 address
                }
            }
            host = h != null ? h : defaultHost;
            port = parsePort(portText, defaultPort);
        }

        private void setUserIfAbsent(String u) {
            if (user == null && u != null && !u.isEmpty()) {
                user = u;
            }
        }

        /** Value of {@code key} (ASCII case-insensitive) in a {@code k=v<sep>k=v} list within {@code [from, to)}. */
        private String param(int from, int to, String key, char sep) {
            int i = from;
            while (i < to) {
                int end = indexOf(sep, i, to);
                if (end < 0) {
                    end = to;
                }
                int k = skipSpaces(i, end);
                int eq = indexOf('=', k, end);
                if (eq >= 0) {
                    int keyEnd = eq;
                    while (keyEnd > k && s.charAt(keyEnd - 1) == ' ') {
                        keyEnd--;
                    }
                    if (is(k, keyEnd, key)) {
                        return nonEmpty(skipSpaces(eq + 1, end), trimEnd(eq + 1, end));
                    }
                }
                i = end + 1;
            }
            return null;
        }

        /** Value of {@code (key = value)} within {@code [from, to)}, key ASCII case-insensitive; null if absent. */
        private String parenValue(int from, int to, String key) {
            int i = from;
            while (i < to) {
                int open = indexOf('(', i, to);
                if (open < 0) {
                    return null;
                }
                int k = skipSpaces(open + 1, to);
                int keyEnd = k;
                while (keyEnd < to && s.charAt(keyEnd) != '=' && s.charAt(keyEnd) != '(' && s.charAt(keyEnd) != ')') {
                    keyEnd++;
                }
                if (keyEnd < to && s.charAt(keyEnd) == '=' && is(k, trimEnd(k, keyEnd), key)) {
                    int v = skipSpaces(keyEnd + 1, to);
                    int close = indexOfAny(v, to, ')', '(');
                    return nonEmpty(v, trimEnd(v, close));
                }
                i = open + 1;
            }
            return null;
        }

        /** Index just after the bracket closing the one at {@code open} (or {@code to} when unbalanced). */
        private int matching(int open, int to) {
            int depth = 0;
            for (int i = open; i < to; i++) {
                char c = s.charAt(i);
                if (c == '(' || c == '[') {
                    depth++;
                } else if (c == ')' || c == ']') {
                    if (--depth == 0) {
                        return i + 1;
                    }
                }
            }
            return to;
        }

        private static int parsePort(String text, int defaultPort) {
            if (text == null) {
                return defaultPort;
            }
            int len = text.length();
            while (len > 0 && text.charAt(len - 1) == ' ') {
                len--;
            }
            if (len == 0 || len > 5) {
                return defaultPort;
            }
            int v = 0;
            for (int i = 0; i < len; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    return defaultPort;
                }
                v = v * 10 + (c - '0');
            }
            return v > 0 && v <= 65535 ? v : defaultPort;
        }

        private boolean startsWith(int at, String prefix) {
            return at >= 0 && s.regionMatches(true, at, prefix, 0, prefix.length());
        }

        /** Whether {@code s[from, to)} equals {@code word}, ASCII case-insensitive. */
        private boolean is(int from, int to, String word) {
            return to - from == word.length() && s.regionMatches(true, from, word, 0, word.length());
        }

        private int indexOf(char c, int from, int to) {
            for (int i = Math.max(from, 0); i < to && i < n; i++) {
                if (s.charAt(i) == c) {
                    return i;
                }
            }
            return -1;
        }

        private int lastIndexOf(char c, int from, int to) {
            for (int i = Math.min(to, n) - 1; i >= from; i--) {
                if (s.charAt(i) == c) {
                    return i;
                }
            }
            return -1;
        }

        /** First index in {@code [from, to)} holding one of {@code cs}, or {@code to}. */
        private int indexOfAny(int from, int to, char... cs) {
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                for (int j = 0; j < cs.length; j++) {
                    if (c == cs[j]) {
                        return i;
                    }
                }
            }
            return to;
        }

        private int indexOfIgnoreCase(String needle, int from, int to) {
            for (int i = from; i + needle.length() <= to; i++) {
                if (s.regionMatches(true, i, needle, 0, needle.length())) {
                    return i;
                }
            }
            return -1;
        }

        private int skipSpaces(int from, int to) {
            while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
                from++;
            }
            return from;
        }

        private int trimEnd(int from, int to) {
            while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
                to--;
            }
            return to;
        }

        private String substring(int from, int to) {
            return from >= to ? null : s.substring(from, to);
        }

        private String nonEmpty(int from, int to) {
            from = skipSpaces(from, to);
            to = trimEnd(from, to);
            return from >= to ? null : s.substring(from, to);
        }
    }
}
