package demo;

/** The demo's Dubbo service: its provider runs in the demo's own JVM and answers from a database. */
public interface AccountService {

    /** The account's name, read with one JDBC query ("none" when there is no such account). */
    String name(int id);

    /** Sleeps {@code millis} and answers "slept"; called with a shorter timeout to make the consumer time out. */
    String slow(int millis);
}
