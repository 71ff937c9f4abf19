package testlib.ctx;

/** A key class the instrumentation does not match: never transformed, so never given a field. */
public class UnmatchedBase implements Key {
}
