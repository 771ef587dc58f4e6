// Package codextest runs the real Codex CLI (`codex app-server`) offline in
// tests: it finds the binary (Binary), fakes the model it talks to
// (FakeModel, an OpenAI Responses API server on 127.0.0.1), and prepares a
// throw-away CODEX_HOME and HOME (Home). What every bridge's tests share
// (a working directory, a child that cannot outlive the test) is in
// agent/agenttest. It is a normal package so both agent/codex's tests and
// the e2e tests can use it.
//
//	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
//	env := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
//	dir := agenttest.Workdir(t)
//	cmd, _ := agenttest.Command(t, codextest.Binary(t), env, dir, "app-server")
//
// # The fake model
//
// Codex sends the whole conversation with every POST /v1/responses. The
// fake answers a trailing function_call_output (the request after a tool
// ran) with a message quoting the tool's output ("followup"), answers side
// requests that are not a turn's model call (request_kind "compaction")
// with SideAnswer ("side") and the title requests of Codex's own TUI with
// Title ("title"), and otherwise plays the scenario named by a
// keyword in the newest prompt: the last user message that is not context
// Codex added itself (<environment_context>, instructions). Keywords match
// case-insensitively as whole words; the first row that matches wins:
//
//	keyword          scenario
//	---------------  ------------------------------------------------------------
//	http 500         HTTP 500 on every attempt: turn/completed failed
//	retry            HTTP 500 on the first FailAttempts attempts, then "plain";
//	                 needs HomeOptions.StreamRetries >= FailAttempts
//	disconnect       half an answer, then the stream ends without
//	                 response.completed, FailAttempts times; then "plain"
//	model error      response.failed: turn/completed failed
//	run sandboxed:   exec_command of the rest of the line, no escalation:
//	                 runs without approval under workspace-write
//	run:             exec_command of the rest of the line with
//	                 sandbox_permissions require_escalated: Codex asks
//	                 item/commandExecution/requestApproval
//	run command      as run: with DefaultCommand
//	patch update:    apply_patch replacing PatchLine by PatchUpdatedLine in
//	                 the named file (one made by patch:)
//	patch:           apply_patch adding the named file holding PatchLine
//	                 (a fileChange item; asks approval under read-only)
//	patch            as patch: with DefaultPatchFile
//	ask user         a request_user_input call asking AskQuestion (id
//	                 AskQuestionID) with AskOptions; after the answer,
//	                 AskAnswerPrefix and the tool's output
//	plan the work    update_plan of PlanSteps[0] (with PlanExplanation),
//	                 after its output one of PlanSteps[1]; then PlanAnswer
//	                 (Codex offers update_plan only with
//	                 [tools.update_plan] enabled = true: HomeOptions.ExtraConfig)
//	slow             reasoning, then deltas "slow0 ", "slow1 ", ... every
//	                 SlowInterval (SlowDeltas of them), until the request ends
//	long             LongText in LongChunk-rune deltas, LongRate a second
//	                 (default: as fast as possible)
//	say:             the rest of the line as the answer, no reasoning
//	(anything else)  plain: reasoning PlainReasoning (summary in two deltas),
//	                 then the markdown PlainAnswer in several deltas
//
// After a command the answer starts with CommandAnswerPrefix, after a patch
// with PatchAnswerPrefix; a fenced block with the output follows. Every
// response ends with response.completed and the token usage of
// FakeOptions.Usage, so Codex reports thread/tokenUsage/updated. Item and
// response ids are unique per FakeModel. Requests returns every request
// received, parsed, to check what context a turn carried.
//
// PROTOCOL_NOTES.md beside this file records the app-server messages
// observed with this fake, for bridge writers.
package codextest
