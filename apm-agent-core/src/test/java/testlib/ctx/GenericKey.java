package testlib.ctx;

import java.util.function.Supplier;

/** Has a generic signature, which lists the interfaces the field adds one to. */
public class GenericKey<T> implements Key, Supplier<T> {
    @Override
    public T get() {
        return null;
    }
}
