package testlib.ctx;

/** The topmost class of key type {@link Key}: it gets the field. */
public class KeyImpl implements Key {
    public String touch() {
        return "touched";
    }
}
