package dev.apmagent.attach;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HsPerfDataTest {

    @Test
    void readsTheStringCountersOfThisJvm() {
        ProcFs procFs = ProcFs.system();
        assumeTrue(procFs != null, "no /proc: not Linux");
        long pid = ProcessHandle.current().pid();
        Path file = HsPerfData.locate(Paths.get("/proc"), pid, procFs.namespacePid(pid), procFs.userName(pid));
        assumeTrue(file != null && !ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:-UsePerfData"),
                "this JVM publishes no perf data");
        Map<String, String> strings = HsPerfData.readStrings(file);
        assertThat(strings).containsEntry("java.property.java.version", System.getProperty("java.version"));
        assertThat(strings.get("java.rt.vmArgs")).isEqualTo(String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        assertThat(strings.get("sun.rt.javaCommand")).isEqualTo(System.getProperty("sun.java.command"));
        // some counters change while the JVM runs (the last compiled method, ...); these do not
        assertThat(procFs.perfData(pid)).containsEntry("java.property.java.version", System.getProperty("java.version"))
                .containsEntry("java.property.java.home", System.getProperty("java.home"));
    }

    @Test
    void builtFileInBothByteOrders() {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            ByteBuffer buffer = ByteBuffer.allocate(256).order(order);
            buffer.order(ByteOrder.BIG_ENDIAN).putInt(0, 0xcafec0c0).order(order);
            buffer.put(4, (byte) (order == ByteOrder.BIG_ENDIAN ? 0 : 1));
            buffer.putInt(24, 32);
            buffer.putInt(28, 2);
            int at = 32;
            at += entry(buffer, at, "java.rt.vmArgs", "-XX:+DisableAttachMechanism", 'B');
            entry(buffer, at, "sun.os.hrt.ticks", "12345678", 'J');
            Map<String, String> strings = HsPerfData.parseStrings(buffer.array());
            assertThat(strings).as(order.toString()).containsOnly(org.assertj.core.api.Assertions.entry("java.rt.vmArgs", "-XX:+DisableAttachMechanism"));
        }
        assertThat(HsPerfData.parseStrings("not perf data at all, not at all".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(HsPerfData.parseStrings(new byte[3])).isEmpty();
    }

    private static int entry(ByteBuffer buffer, int at, String name, String value, char type) {
        byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.US_ASCII);
        byte[] valueBytes = (value + "\0").getBytes(StandardCharsets.US_ASCII);
        int nameOffset = 20;
        int dataOffset = nameOffset + nameBytes.length;
        int length = dataOffset + valueBytes.length;
        buffer.putInt(at, length);
        buffer.putInt(at + 4, nameOffset);
        buffer.putInt(at + 8, type == 'B' ? valueBytes.length : 0);
        buffer.put(at + 12, (byte) type);
        buffer.putInt(at + 16, dataOffset);
        for (int i = 0; i < nameBytes.length; i++) {
            buffer.put(at + nameOffset + i, nameBytes[i]);
        }
        for (int i = 0; i < valueBytes.length; i++) {
            buffer.put(at + dataOffset + i, valueBytes[i]);
        }
        return length;
    }
}
