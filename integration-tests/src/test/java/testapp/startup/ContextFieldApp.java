package testapp.startup;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/**
 * Opens an H2 connection (H2 from the demo jar on the class path) and prepares a statement, and prints whether their
 * classes got the agent's context field, which the JDBC plugin's stores use for them (looked up by name: the
 * application never links to the agent).
 */
public final class ContextFieldApp {

    private ContextFieldApp() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:fields", "sa", "");
             PreparedStatement ps = c.prepareStatement("SELECT 1")) {
            System.out.println("connection " + hasContextField(c) + ", statement " + hasContextField(ps));
        }
    }

    private static boolean hasContextField(Object o) {
        for (Class<?> type = o.getClass(); type != null; type = type.getSuperclass()) {
            for (Class<?> implemented : type.getInterfaces()) {
                if (implemented.getName().equals("dev.apmagent.plugin.ContextField")) {
                    return true;
                }
            }
        }
        return false;
    }
}
