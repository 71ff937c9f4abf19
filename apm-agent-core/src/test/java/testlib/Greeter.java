package testlib;

/** An application class outside the agent's packages, for instrumentation tests. */
public class Greeter {
    public String greet(String name) {
        if (name == null) {
            throw new IllegalStateException("no name");
        }
        return "hello " + name;
    }
}
