package testlib.ctx;

/** A subtype of two key types: no field, both stores use their maps. */
public class BothKeys implements Key, OtherKey {
}
