package testlib.ctx;

/** Gets the field of {@link OtherKey}, which a store of {@link Key} must not use. */
public class OtherImpl implements OtherKey {
}
