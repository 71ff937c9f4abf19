/**
 * The bootstrap bridge: the only classes of the agent that the bootstrap class loader sees, so that advice inlined into
 * JDK classes can reach the tracer. A table of handlers and the handler type; nothing else, and nothing that imports
 * another package of the agent (it is copied into a jar of its own and appended to the bootstrap search path).
 */
package dev.apmagent.bridge;
