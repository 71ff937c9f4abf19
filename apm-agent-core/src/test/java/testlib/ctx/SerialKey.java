package testlib.ctx;

import java.io.Serializable;

/** Serializable without a serialVersionUID: a field and an interface would change the computed one. */
public class SerialKey implements Key, Serializable {
}
