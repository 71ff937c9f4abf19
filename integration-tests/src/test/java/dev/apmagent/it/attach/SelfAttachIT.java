package dev.apmagent.it.attach;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ApmAgentAttacher.attach(config)} from an application's own main, on JDK 17 and JDK 25. */
class SelfAttachIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void applicationWithTheAgentJarOnItsClassPathStartsTheAgentOnce(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result result = ForkedJvm.on(jdk).classPath(TestPaths.agentJar())
                .main(SelfAttachApp.class, dir.resolve("agent.log").toString()).run();

        assertThat(result.exitCode).as(result.toString()).isZero();
        assertThat(result.stdout).as(result.toString()).containsPattern("first=true second=false started=\\S+ attach");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void attachModuleAloneFindsTheAgentJarThroughTheSystemProperty(Jdk jdk) throws Exception {
        Path attachClasses = Paths.get(System.getProperty("apm.attach.classes"));
        Path byteBuddyAgent = Paths.get(System.getProperty("apm.bytebuddy.agent.jar"));
        ForkedJvm.Result result = ForkedJvm.on(jdk).classPath(attachClasses).classPath(byteBuddyAgent)
                .jvmArg("-Ddev.apmagent.agent_jar=" + TestPaths.agentJar())
                .main(SelfAttachApp.class, "-").run();

        assertThat(result.exitCode).as(result.toString()).isZero();
        assertThat(result.stdout).as(result.toString()).containsPattern("first=true second=false started=\\S+ attach");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void withoutTheAgentJarTheMessageSaysWhereToPutIt(Jdk jdk) throws Exception {
        Path attachClasses = Paths.get(System.getProperty("apm.attach.classes"));
        Path byteBuddyAgent = Paths.get(System.getProperty("apm.bytebuddy.agent.jar"));
        ForkedJvm.Result result = ForkedJvm.on(jdk).classPath(attachClasses).classPath(byteBuddyAgent)
                .main(SelfAttachApp.class, "-").run();

        assertThat(result.stdout).as(result.toString())
                .contains("error: apm-agent self-attach: cannot find the agent jar")
                .contains("-Ddev.apmagent.agent_jar=PATH");
    }
}
