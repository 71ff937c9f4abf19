package dev.apmagent.tools;

import dev.apmagent.report.AgentVersion;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * {@code java -jar apm-agent.jar <command>}: the agent jar's command line. Each command is a main class of its own,
 * looked up by name so that the tools' code is only loaded when it is asked for.
 */
public final class AgentCli {

    private static final String[][] COMMANDS = {
            {"attach", "dev.apmagent.attach.AttachCommand", "attach the agent to running JVMs (see: attach --help)"},
            {"view", "dev.apmagent.view.TraceViewer", "print the traces of an NDJSON event file as a waterfall (see: view --help)"},
    };

    private AgentCli() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            usage();
            System.exit(args.length == 0 ? 2 : 0);
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            System.out.println("apm-agent " + AgentVersion.get());
            return;
        }
        for (String[] command : COMMANDS) {
            if (command[0].equals(args[0])) {
                run(command[1], Arrays.copyOfRange(args, 1, args.length));
                return;
            }
        }
        System.err.println("unknown command: " + args[0]);
        usage();
        System.exit(2);
    }

    private static void run(String mainClass, String[] args) throws Throwable {
        Method main = Class.forName(mainClass).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void usage() {
        StringBuilder sb = new StringBuilder("apm-agent ").append(AgentVersion.get()).append('\n')
                .append("As an agent:  java -javaagent:apm-agent.jar[=key=value,...] -jar your-app.jar\n")
                .append("As a tool:    java -jar apm-agent.jar <command> [options]\n\ncommands:\n");
        for (String[] command : COMMANDS) {
            sb.append(String.format("  %-8s %s%n", command[0], command[2]));
        }
        sb.append(String.format("  %-8s %s%n", "version", "print the agent's version"));
        System.out.print(sb);
    }
}
