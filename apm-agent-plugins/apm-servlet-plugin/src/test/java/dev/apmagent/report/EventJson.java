package dev.apmagent.report;

import dev.apmagent.trace.Transaction;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The reporter's own serializer output for an event, for plugin tests; fails on bytes that are not valid UTF-8. */
public final class EventJson {

    private EventJson() {
    }

    public static String transaction(Transaction t) throws CharacterCodingException {
        JsonHelper h = new JsonHelper();
        TransactionSerializer.serialize(t, h);
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(h.buffer(), 0, h.size())).toString();
    }
}
