package dev.apmagent.plugin;

/**
 * The accessor of a context field: the class file hook makes a library class implement it when it adds the field,
 * as the class is loaded, for the key type an instrumentation declared ({@link Instrumentation#contextKeyTypes()}).
 * Only {@link ContextStore} calls it; plugins never do.
 *
 * <p>The hook generates, in the library class (the {@code $} keeps the names apart from the library's own):
 * <pre>{@code
 * private transient volatile Object apmagent$context;   // synthetic, like the three methods
 * public String apmagent$contextKeyType() { return "java.sql.Statement"; }   // a constant: interned
 * public Object apmagent$lvContext()        { return this.apmagent$context; }
 * public void   apmagent$svContext(Object v) { this.apmagent$context = v; }
 * }</pre>
 * It is on the system class path, where the library classes that instrumentations advise find the agent's helpers
 * (docs/architecture.md, "Class loading"); the hook adds the field only where the class's loader sees this interface.
 */
public interface ContextField {

    /** The name of the key type the field was added for, a string constant (so the same interned instance). */
    String apmagent$contextKeyType();

    /** Volatile load of the field. */
    Object apmagent$lvContext();

    /** Volatile store into the field. */
    void apmagent$svContext(Object value);
}
