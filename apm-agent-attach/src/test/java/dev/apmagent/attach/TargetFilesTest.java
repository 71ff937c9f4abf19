package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetFilesTest {

    @Test
    void targetThatSeesAnotherFileSystemGetsItsFilesInItsOwnTmp(@TempDir Path dir) throws Exception {
        Path containerRoot = Files.createDirectories(dir.resolve("container"));
        Files.createDirectories(containerRoot.resolve("tmp"));
        Path proc = Files.createDirectories(dir.resolve("proc").resolve("42"));
        Files.createSymbolicLink(proc.resolve("root"), containerRoot);
        File agentJar = AgentJarTest.jar(Files.createDirectories(dir.resolve("host")), "apm-agent.jar", AgentJar.AGENT_CLASS);

        TargetFiles files = TargetFiles.of(dir.resolve("proc"), 42);
        String jarInTarget = files.agentJar(agentJar);

        assertThat(jarInTarget).matches("/tmp/apm-agent-\\d+\\.jar");
        Path copy = containerRoot.resolve(jarInTarget.substring(1));
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(agentJar.toPath()));
        assertThat(files.agentJar(agentJar)).as("a fresh copy for every attach, never a file someone else could plant")
                .isNotEqualTo(jarInTarget);

        Path config = AgentConfigFile.write(files.hostDirectory(), Collections.singletonMap("service_name", "x"), "c");
        assertThat(config.getParent()).isEqualTo(proc.resolve("root").resolve("tmp"));
        assertThat(files.targetPath(config)).isEqualTo("/tmp/" + config.getFileName());
        assertThat(Files.exists(containerRoot.resolve("tmp").resolve(config.getFileName()))).isTrue();
    }

    @Test
    void theCopyIsTheRealJarWhateverElseLiesInTmp(@TempDir Path dir) throws Exception {
        Path containerRoot = Files.createDirectories(dir.resolve("container"));
        Path tmp = Files.createDirectories(containerRoot.resolve("tmp"));
        Path proc = Files.createDirectories(dir.resolve("proc").resolve("43"));
        Files.createSymbolicLink(proc.resolve("root"), containerRoot);
        File agentJar = AgentJarTest.jar(Files.createDirectories(dir.resolve("host")), "apm-agent.jar", AgentJar.AGENT_CLASS);
        byte[] planted = new byte[(int) agentJar.length()];
        try (java.util.stream.Stream<Path> none = Files.list(tmp)) {
            assertThat(none.count()).isZero();
        }
        Files.write(tmp.resolve("apm-agent-planted.jar"), planted);

        String jarInTarget = TargetFiles.of(dir.resolve("proc"), 43).agentJar(agentJar);

        assertThat(Files.readAllBytes(containerRoot.resolve(jarInTarget.substring(1)))).isEqualTo(Files.readAllBytes(agentJar.toPath()));
    }

    @Test
    void targetThatSeesTheSameFileSystemGetsTheJarWhereItIs(@TempDir Path dir) throws Exception {
        Path proc = Files.createDirectories(dir.resolve("proc").resolve("7"));
        Files.createSymbolicLink(proc.resolve("root"), Paths.get("/"));
        File agentJar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);

        TargetFiles files = TargetFiles.of(dir.resolve("proc"), 7);
        assertThat(files.agentJar(agentJar)).isEqualTo(agentJar.getAbsolutePath());
        assertThat(files.targetPath(files.hostDirectory().resolve("a.properties"))).isEqualTo("/tmp/a.properties");
    }

    @Test
    void withoutProcTheFilesAreLocal(@TempDir Path dir) throws Exception {
        File agentJar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        TargetFiles files = TargetFiles.of(dir.resolve("no-proc"), 7);
        assertThat(files.hostDirectory()).isEqualTo(Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath());
        assertThat(files.agentJar(agentJar)).isEqualTo(agentJar.getAbsolutePath());
        assertThat(files.targetPath(files.hostDirectory().resolve("b"))).isEqualTo(files.hostDirectory().resolve("b").toString());
    }

    @Test
    void aPathWithACommaCannotBeAnAgentArgument() {
        assertThatThrownBy(() -> AgentConfigFile.agentArgument("/tmp/a,b/c.properties"))
                .isInstanceOf(AttachFailure.class).hasMessageContaining("contains a comma");
    }
}
