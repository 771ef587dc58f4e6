// Package opencodetest runs the real OpenCode server (`opencode serve`)
// offline in tests: it finds the binary (Binary), fakes the model it talks
// to (FakeModel, an OpenAI-compatible chat-completions server on
// 127.0.0.1), prepares a throw-away HOME holding an opencode.json that
// points at the fake (Home), a scratch git working directory (GitWorkdir;
// agenttest.Workdir for a plain one), and starts a server that cannot
// outlive the test (Serve). It is a normal
// package so both agent/opencode's tests and the root package's can use it.
//
//	fake := opencodetest.NewFakeModel(t, opencodetest.FakeOptions{})
//	env := opencodetest.Home(t, fake.URL(), opencodetest.HomeOptions{})
//	dir := agenttest.Workdir(t)
//	srv := opencodetest.Serve(t, opencodetest.Binary(t), env, dir, "")
//
// # The fake model
//
// OpenCode sends the whole conversation with every POST
// /v1/chat/completions (streaming). The fake answers the title requests
// OpenCode makes with its small model (a system prompt naming a "title
// generator") with Title, answers a request whose last message is a tool
// result with FollowupPrefix and that result ("followup"), and otherwise
// plays the scenario named by a keyword in the newest user message.
// Keywords match case-insensitively as whole words; the first row that
// matches wins:
//
//	keyword          scenario
//	---------------  ------------------------------------------------------------
//	model error      HTTP 400 with a JSON error body: OpenCode does not retry it,
//	                 session.error APIError, the turn fails
//	retry            HTTP 503 on the first FailAttempts attempts of the prompt,
//	                 then "plain": OpenCode reports session.status retry
//	disconnect       half the plain answer, then the connection drops, on the
//	                 first FailAttempts attempts of the prompt; then "plain"
//	run:             a bash tool call of the rest of the line
//	write:           a write tool call creating the named absolute path with
//	                 WriteContent
//	edit:            an edit tool call replacing WriteLine by EditedLine in the
//	                 named absolute path (one made by write:)
//	plan the work    a todowrite call of PlanTodos[0]; after its result one of
//	                 PlanTodos[1] (the list revised); then PlanAnswer
//	ask user         a question tool call asking AskQuestion with AskOptions,
//	                 single choice (OpenCode sends question.asked); after the
//	                 answer, "followup" quotes the tool's result
//	slow             an answer of SlowDeltas deltas "slow0 ", "slow1 ", ... one
//	                 per SlowInterval, ending early when the request ends
//	long             LongText in LongChunk-rune deltas, LongRate a second
//	                 (default: as fast as possible), no reasoning
//	say:             the rest of the line as the answer, word by word
//	(anything else)  plain: reasoning_content PlainReasoning in two deltas
//	                 (OpenCode shows it as a reasoning part), then the markdown
//	                 PlainAnswer in several deltas
//
// Every stream ends with a usage chunk (FakeOptions.Usage) and [DONE].
// Requests returns every request received, parsed, to check what context a
// turn carried.
//
// PROTOCOL_NOTES.md beside this file records what the OpenCode server was
// seen to do, for bridge writers.
package opencodetest
