// Package child is the plumbing every agent bridge needs to run the
// agent's own program as a child of the host: finding the program and
// checking its version (Program), its environment (Env), starting it in a
// process group of its own that dies with the host (Start, Process),
// stopping it, saying how it ended, and reading its output one bounded
// line at a time (ReadLines) into an in-order queue for one consumer
// (Queue).
//
// It knows nothing of any agent's protocol, nor of the host: a bridge
// (agent/codex, agent/claude) keeps its own messages, and uses this
// package for the process around them (docs/agents.md, "What every bridge
// shares").
package child
