package testlib.ctx;

/** Matched, but its superclass is a key type already: no field (the superclass has none here), the map serves. */
public class OnUnmatchedBase extends UnmatchedBase {
}
