package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentJarTest {

    static File jar(Path dir, String name, String agentClass) throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (agentClass != null) {
            manifest.getMainAttributes().put(new Attributes.Name("Agent-Class"), agentClass);
        }
        File file = dir.resolve(name).toFile();
        try (OutputStream out = Files.newOutputStream(file.toPath()); JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.flush();
        }
        return file;
    }

    @Test
    void acceptsOnlyAJarWithTheAgentsAgentClass(@TempDir Path dir) throws Exception {
        assertThat(AgentJar.problem(jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS))).isNull();
        assertThat(AgentJar.problem(jar(dir, "other.jar", "com.other.Agent"))).contains("is not the apm-agent jar");
        assertThat(AgentJar.problem(jar(dir, "plain.jar", null))).contains("is not the apm-agent jar");
        Path text = Files.write(dir.resolve("text.jar"), "not a zip".getBytes());
        assertThat(AgentJar.problem(text.toFile())).contains("is not a jar");
        assertThat(AgentJar.problem(dir.resolve("missing.jar").toFile())).contains("does not exist");
        assertThat(AgentJar.problem(dir.toFile())).contains("is not a file");
    }

    @Test
    void explicitJarWinsThenOwnJarThenSystemProperty(@TempDir Path dir) throws Exception {
        File good = jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        assertThat(AgentJar.locate(good, AgentJarTest.class, "apm.test.agent_jar")).isEqualTo(good.getAbsoluteFile());
        // this test class comes from a directory, not from the agent jar
        assertThat(AgentJar.ofClass(AgentJarTest.class)).isNull();
        System.setProperty("apm.test.agent_jar", good.getPath());
        try {
            assertThat(AgentJar.locate(null, AgentJarTest.class, "apm.test.agent_jar")).isEqualTo(good.getAbsoluteFile());
            System.setProperty("apm.test.agent_jar", dir.resolve("nope.jar").toString());
            assertThatThrownBy(() -> AgentJar.locate(null, AgentJarTest.class, "apm.test.agent_jar"))
                    .hasMessageContaining("system property apm.test.agent_jar").hasMessageContaining("does not exist");
        } finally {
            System.clearProperty("apm.test.agent_jar");
        }
        assertThatThrownBy(() -> AgentJar.locate(null, AgentJarTest.class, "apm.test.agent_jar"))
                .isInstanceOf(AttachFailure.class)
                .hasMessageContaining("cannot find the agent jar")
                .hasMessageContaining("--agent-jar PATH")
                .hasMessageContaining("-Dapm.test.agent_jar=PATH");
        assertThatThrownBy(() -> AgentJar.locate(dir.resolve("x.jar").toFile(), AgentJarTest.class, "p"))
                .hasMessageContaining("agent jar: ");
    }
}
