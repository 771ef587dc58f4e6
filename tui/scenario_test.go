package tui

import (
	"fmt"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

const (
	started   = model.MethodItemStarted
	updated   = model.MethodItemUpdated
	completed = model.MethodItemCompleted
)

type obj = map[string]any

// kindsSession scripts a session that shows every item kind and state:
// user, agent (markdown with code), reasoning, tool calls completed,
// failed, truncated, running (streaming output) and waiting for approval,
// a context compaction, an error, an unknown kind, a host-death terminal,
// a streaming agent message, a model-request warning, a queued turn and
// pending prompts (sending, queued, retrying).
func kindsSession(f *fakeSource) {
	f.frame(model.MethodSessionState, obj{"title": "Fix the flaky sync test"})
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c0"})
	f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "commandId": "c0",
		"text": "Why does TestSync fail on CI but not locally?"})
	f.item(completed, obj{"itemId": "r1", "kind": "reasoning", "status": "completed",
		"summary": []string{"Reading the CI log", "The cache writer races with the reader"}})
	f.item(completed, obj{"itemId": "a1", "kind": "agentMessage", "status": "completed",
		"text": "The test races on **cache writes**. A fix:\n\n```go\nfunc TestSync(t *testing.T) {\n\tt.Parallel()\n}\n```\n\n- run with `-race`\n- keep one writer"})
	f.item(completed, obj{"itemId": "tool1", "kind": "toolCall", "status": "completed", "toolName": "bash",
		"inputText": `{"command":"go test ./sync/..."}`, "input": obj{"command": "go test ./sync/..."},
		"output": "ok  \tgithub.com/lookout-sh/lookout/sync\t0.412s\n", "exitCode": 0})
	f.item(completed, obj{"itemId": "tool2", "kind": "toolCall", "status": "failed", "toolName": "bash",
		"input": obj{"command": "go vet ./..."}, "output": "sync/loop.go:12: unreachable code\n", "exitCode": 1})
	f.item(completed, obj{"itemId": "tool3", "kind": "toolCall", "status": "completed", "toolName": "read_file",
		"input": obj{"path": "big.log"}, "output": strings.Repeat("log line\n", 12), "exitCode": 0, "truncated": []string{"output"}})
	f.item(completed, obj{"itemId": "cc1", "kind": "contextCompaction", "status": "completed"})
	f.item(completed, obj{"itemId": "e1", "kind": "error", "status": "failed", "message": "model overloaded, try again"})
	f.item(completed, obj{"itemId": "x1", "kind": "webSearch", "status": "completed", "query": "go race detector cache", "hits": 3})
	f.item(completed, obj{"itemId": "hd1", "kind": "agentMessage", "status": "failed", "endedBy": "hostDeath", "text": "I was about to"})
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "completed"})

	f.frame(model.MethodTurnStarted, obj{"turnId": "t2", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c1"})
	f.item(completed, obj{"itemId": "u2", "kind": "userMessage", "status": "completed", "commandId": "c1", "turnId": "t2", "text": "Apply the fix and clean the build"})
	f.item(started, obj{"itemId": "tool4", "kind": "toolCall", "status": "running", "turnId": "t2", "toolName": "bash",
		"input": obj{"command": "go test -race ./sync/..."}, "output": ""})
	f.delta("tool4", "output", "=== RUN   TestSync\n")
	f.delta("tool4", "output", "--- PASS: TestSync (0.02s)\n")
	f.item(started, obj{"itemId": "tool5", "kind": "toolCall", "status": "waitingUser", "turnId": "t2", "toolName": "bash",
		"input": obj{"command": "rm -rf build/"}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t2", "itemId": "tool5",
		"summary": "Run `rm -rf build/`", "options": []string{"approve", "deny"}})
	f.item(started, obj{"itemId": "a2", "kind": "agentMessage", "status": "inProgress", "turnId": "t2", "text": ""})
	f.delta("a2", "text", "Running the tests with the race detector ")
	f.delta("a2", "text", "before I clean up.")
	f.frame(model.MethodWarning, obj{"requestKind": "model", "code": "rate_limited", "message": "rate limited",
		"retryable": true, "attempt": 2, "maxAttempts": 5, "willRetry": true, "turnId": "t2"})
	f.frame(model.MethodTurnQueued, obj{"turnId": "t3", "commandId": "c2", "text": "then open a PR", "position": 0})
	f.edit(func(sn *sync.Picture, st *model.State) {
		st.Submit("c2", "then open a PR", 0)
		st.Ack("c2", "queued", "t3")
		st.Submit("c3", "and tell me when CI is green", 0)
		st.Submit("c4", "thanks!", 0)
		st.SetPendingStatus("c4", model.PendingRetrying)
	})
}

// longSession scripts n finished exchanges (a user message and an agent
// answer each), numbered from first.
func longSession(f *fakeSource, first, n int) {
	for i := first; i < first+n; i++ {
		f.item(completed, obj{"itemId": fmt.Sprintf("u%05d", i), "kind": "userMessage", "status": "completed",
			"text": fmt.Sprintf("question %d", i)})
		f.item(completed, obj{"itemId": fmt.Sprintf("a%05d", i), "kind": "agentMessage", "status": "completed",
			"text": fmt.Sprintf("answer %d", i)})
	}
}
