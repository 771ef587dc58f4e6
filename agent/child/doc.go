// Package child is the plumbing every agent bridge needs to run the
// agent's own program as a child of the host: finding the program and
// checking its version (Program), its environment (Env), starting it in a
// process group of its own that dies with the host (Start, Process),
// reading its stdout to the end, stopping it (a server with a signal, and
// the commands it started in sessions of their own) and saying how it
// ended, and speaking JSON lines with it over stdio (Conn): whole lines
// out (LineWriter), requests matched to their answers (Calls), its output
// read one bounded line at a time (ReadLines) and queued in order for one
// consumer (Queue).
//
// It knows nothing of any agent's protocol, nor of the host: a bridge
// (agent/codex, agent/claude, agent/opencode) keeps its own messages, and
// uses this package for the process around them (docs/agents.md, "What
// every bridge shares").
package child
