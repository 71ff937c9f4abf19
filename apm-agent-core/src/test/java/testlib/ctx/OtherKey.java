package testlib.ctx;

/** The second key type of ContextFieldTest's instrumentation. */
public interface OtherKey {
}
