// Package claudetest runs the real Claude Code CLI (`claude -p` with
// stream-json on stdin and stdout) offline in tests: it finds the binary
// (Binary), fakes the model it talks to (FakeModel, an Anthropic Messages
// API server on 127.0.0.1), and prepares a throw-away HOME and TMPDIR
// (Home). What every bridge's tests share (a working directory, a child
// that cannot outlive the test) is in agent/agenttest. It is a normal
// package so both agent/claude's tests and the root package's CLI tests
// can use it.
//
//	fake := claudetest.NewFakeModel(t, claudetest.FakeOptions{})
//	env := claudetest.Home(t, fake.URL(), claudetest.HomeOptions{})
//	dir := agenttest.Workdir(t)
//	cmd, _ := agenttest.Command(t, claudetest.Binary(t), env, dir, "-p",
//		"--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
//
// # The fake model
//
// Claude Code sends the whole conversation with every POST /v1/messages
// (streaming), with "system" messages of its own between the user and
// assistant ones. The fake answers a compaction request (the summary
// /compact asks for) with SideAnswer ("side"); answers a user message that
// carries a tool_result and no prompt with the scenario's next step, or a
// text quoting the result ("followup"); and otherwise plays the scenario
// named by a keyword in the newest prompt (see IsPrompt). Keywords match
// case-insensitively as whole words; the first row that matches wins:
//
//	keyword      scenario
//	-----------  ------------------------------------------------------------
//	http 500     HTTP 500 on every attempt: Claude Code retries
//	             (HomeOptions.MaxRetries, announced as system/api_retry),
//	             then the turn fails
//	retry        HTTP 500 on the first FailAttempts attempts, then "plain"
//	model error  HTTP 400 invalid_request_error: no retry, the turn fails
//	run:         RunPreamble, then a Bash tool_use running the rest of the
//	             line; after it ran, CommandAnswerPrefix and its output
//	write:       a Write tool_use putting WriteContent in the file named on
//	             the rest of the line (an absolute path); then
//	             EditAnswerPrefix
//	edit:        a Read tool_use of the named file, then an Edit replacing
//	             EditOld by EditNew in it; then EditAnswerPrefix
//	ask user     an AskUserQuestion tool_use (AskQuestion, AskOptions);
//	             after the answer, AskAnswerPrefix and the tool_result
//	plan the     a TodoWrite of PlanTodos[0], after its result one of
//	work         PlanTodos[1]; then PlanAnswer (Claude Code offers
//	             TodoWrite only with CLAUDE_CODE_ENABLE_TODO_TOOLS=1 and
//	             CLAUDE_CODE_ENABLE_TASKS=0, as the bridge sets them)
//	slow         thinking, then deltas "slow0 ", "slow1 ", ... every
//	             SlowInterval (SlowDeltas of them), until the request ends
//	long         LongText in LongChunk-rune deltas, LongRate a second
//	             (default: as fast as possible), no thinking
//	say:         the rest of the line as the answer, no thinking
//	(otherwise)  plain: thinking PlainThinking (two deltas), then the
//	             markdown PlainAnswer in several deltas
//
// After a tool failed or was denied the answer starts with
// ToolErrorPrefix. Every answer reports the token usage of
// FakeOptions.Usage. Message and tool ids are unique per FakeModel.
// Requests returns every request received, parsed, to check what context
// a turn carried.
package claudetest
