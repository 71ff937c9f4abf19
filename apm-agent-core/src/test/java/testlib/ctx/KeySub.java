package testlib.ctx;

/** Its superclass has the field: it declares none and uses the inherited one. */
public class KeySub extends KeyImpl {
    @Override
    public String touch() {
        return "sub " + super.touch();
    }
}
