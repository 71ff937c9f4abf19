package testlib.ctx;

/** A key type of ContextFieldTest's instrumentation. */
public interface Key {
}
