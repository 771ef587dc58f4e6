package hosttest

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// ScriptAgent answers each prompt with the script the map holds for it;
// a prompt without one fails its turn.
type ScriptAgent map[string]func(context.Context, *host.Turn) error

// Launch accepts every prompt.
func (ScriptAgent) Launch(string) error { return nil }

// Run runs the prompt's script.
func (a ScriptAgent) Run(ctx context.Context, t *host.Turn) error {
	f, ok := a[t.Prompt()]
	if !ok {
		return fmt.Errorf("hosttest: no script for the prompt %q", t.Prompt())
	}
	return f(ctx, t)
}

// StreamItem opens an item of kind with the members start, streams text
// into field in deltas of chunk bytes (cut back to a rune boundary), and
// completes it: what an agent streaming an answer or a tool's output
// does.
func StreamItem(t *host.Turn, kind string, start map[string]any, field, text string, chunk int) error {
	id, err := t.StartItem(kind, model.StatusInProgress, start)
	if err != nil {
		return err
	}
	for text != "" {
		n := min(chunk, len(text))
		for n < len(text) && n > 1 && !utf8.RuneStart(text[n]) {
			n--
		}
		if err := t.Delta(id, field, text[:n]); err != nil {
			return err
		}
		text = text[n:]
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}
