package dev.apmagent.attach;

import java.io.IOException;
import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The string counters of a HotSpot JVM's perf data file ({@code /tmp/hsperfdata_<user>/<pid>}, the jvmstat memory
 * that {@code jps} and {@code jstat} read): among them {@code java.rt.vmArgs} (every JVM option, including those from
 * {@code JAVA_TOOL_OPTIONS} and {@code @argfiles}), {@code sun.rt.jvmFlags} and {@code java.property.java.version}.
 * Reading the file does not disturb the JVM. The layout is that of HotSpot's {@code perfMemory.hpp}: a prologue, then
 * entries with a name and a value.
 */
final class HsPerfData {

    private static final int MAGIC = 0xcafec0c0;
    private static final int MAX_FILE_BYTES = 4 * 1024 * 1024;

    private HsPerfData() {
    }

    /** The perf data file of a JVM seen through {@code /proc}, or null when it has none (-XX:-UsePerfData, J9, gone). */
    static Path locate(Path procRoot, long pid, long namespacePid, String user) {
        Path file = procRoot.resolve(Long.toString(pid)).resolve("root").resolve("tmp").resolve("hsperfdata_" + user)
                .resolve(Long.toString(namespacePid));
        return Files.isRegularFile(file) ? file : null;
    }

    /** The string counters of the file, by name; empty when the file is not perf data or cannot be read. */
    static Map<String, String> readStrings(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                return new HashMap<String, String>();
            }
            return parseStrings(Files.readAllBytes(file));
        } catch (IOException | SecurityException e) {
            return new HashMap<String, String>();
        }
    }

    static Map<String, String> parseStrings(byte[] bytes) {
        Map<String, String> strings = new HashMap<String, String>();
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
            if (buffer.getInt(0) != MAGIC) {
                return strings;
            }
            buffer.order(bytes[4] == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            // prologue: magic(4) byte_order(1) major(1) minor(1) accessible(1) used(4) overflow(4) mod_time_stamp(8)
            //           entry_offset(4) num_entries(4)
            int entryOffset = buffer.getInt(24);
            int entries = buffer.getInt(28);
            int position = entryOffset;
            for (int i = 0; i < entries && position > 0 && position < bytes.length; i++) {
                int entryLength = buffer.getInt(position);
                int nameOffset = buffer.getInt(position + 4);
                int vectorLength = buffer.getInt(position + 8);
                byte dataType = buffer.get(position + 12);
                int dataOffset = buffer.getInt(position + 16);
                if (entryLength <= 0) {
                    break;
                }
                if (dataType == 'B' && vectorLength > 0) {
                    String name = cString(bytes, position + nameOffset, entryLength - nameOffset);
                    String value = cString(bytes, position + dataOffset, vectorLength);
                    strings.put(name, value);
                }
                position += entryLength;
            }
        } catch (IndexOutOfBoundsException | BufferUnderflowException | BufferOverflowException e) {
            // a torn or foreign file: keep what was read
        }
        return strings;
    }

    private static String cString(byte[] bytes, int start, int maxLength) {
        int end = start;
        int limit = Math.min(bytes.length, start + Math.max(0, maxLength));
        while (end < limit && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, start, end - start, StandardCharsets.UTF_8);
    }
}
