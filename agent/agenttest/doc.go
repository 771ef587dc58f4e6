// Package agenttest is what the tests of every agent bridge share: finding
// the agent's real program (BinarySpec), starting it tied to a test
// (Command), scratch directories and environments (Workdir, TempDir,
// EnvValue); the parts of a fake model API that do not depend on the API:
// the HTTP server that records requests and ends streams on Close
// (Server), a server-sent-events writer and reader (SSE, ReadSSE, Deltas),
// and scenarios chosen by a keyword in the prompt (Scenario,
// MatchScenario); the child's end of a bridge's connection (Pipe,
// WaitQueued); a smoke test's steps (Steps); and the stage of a bridge's
// tests, a real host running the bridge with a subscribed client (Rig);
// and the contract suite, the behaviours every bridge must show, run
// against its real program (RunContract, Subject). Each bridge's own test
// package (agent/codex/codextest, agent/claude/claudetest,
// agent/opencode/opencodetest) builds its fake model's API and the agent's
// configuration on top of these; a new bridge's tests start here too
// (docs/agents.md, "What every bridge shares").
//
// It is a normal package, not a _test one, so that bridge tests, the
// root package's CLI tests and the e2e tests can all use it.
package agenttest
