package dev.apmagent.it.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code jcmd GC.heap_info} as each collector and JDK prints it, read by {@link HeapAfterGc#parse}. */
class HeapAfterGcIT {

    static Stream<Arguments> heapInfo() {
        return Stream.of(
                Arguments.of("G1, JDK 17 (Metaspace is not heap)",
                        "26257:\n"
                                + " garbage-first heap   total 48128K, used 14410K [0x00000000f0000000, 0x0000000100000000)\n"
                                + "  region size 1024K, 0 young (0K), 0 survivors (0K)\n"
                                + " Metaspace       used 28074K, committed 28480K, reserved 1114112K\n"
                                + "  class space    used 3127K, committed 3328K, reserved 1048576K\n",
                        14410L << 10),
                Arguments.of("G1, JDK 25",
                        "7427:\n"
                                + "garbage-first heap   total reserved 6172672K, committed 393216K, used 10981K [0x0000000687400000, 0x0000000800000000)\n"
                                + " region size 4096K, 3 young (12288K), 1 survivors (4096K)\n",
                        10981L << 10),
                Arguments.of("Serial, JDK 25: young plus old, not the spaces' percentages",
                        "7897:\n"
                                + "DefNew     total 116160K, used 31005K [0x0000000687400000, 0x000000068f200000, 0x0000000704d50000)\n"
                                + " eden space 103296K,  30% used [0x0000000687400000, 0x00000006892475b0, 0x000000068d8e0000)\n"
                                + " from space 12864K,   0% used [0x000000068d8e0000, 0x000000068d8e0000, 0x000000068e570000)\n"
                                + "Tenured    total 258048K, used 1166K [0x0000000704d50000, 0x0000000714950000, 0x0000000800000000)\n"
                                + " the  space 258048K,   0% used [0x0000000704d50000, 0x0000000704e73ab8, 0x0000000714950000)\n",
                        (31005L + 1166L) << 10),
                Arguments.of("Parallel, JDK 25",
                        "8368:\n"
                                + "PSYoungGen      total 113152K, used 29364K [0x0000000782700000, 0x000000078a500000, 0x0000000800000000)\n"
                                + " eden space 97280K, 30% used [0x0000000782700000,0x00000007843ad178,0x0000000788600000)\n"
                                + "ParOldGen       total 258048K, used 1166K [0x0000000687400000, 0x0000000697000000, 0x0000000782700000)\n",
                        (29364L + 1166L) << 10),
                Arguments.of("ZGC, JDK 25",
                        "9022:\n"
                                + "ZHeap            used 60M, capacity 378M, max capacity 6028M\n"
                                + " Cache           318M (1)\n",
                        60L << 20));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heapInfo")
    void sumsTheHeapLinesUsedFigures(String collector, String printed, long bytes) {
        assertThat(HeapAfterGc.parse(printed)).isEqualTo(bytes);
    }

    @Test
    void failsWithTheOutputWhenThereIsNoHeapLine() {
        String noHeap = "12345:\nMetaspace       used 28074K, committed 28480K, reserved 1114112K\n";
        assertThatThrownBy(() -> HeapAfterGc.parse(noHeap)).isInstanceOf(AssertionError.class).hasMessageContaining(noHeap);
    }
}
