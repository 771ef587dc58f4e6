package child

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestLineWriterWritesWholeJSONLines(t *testing.T) {
	var b bytes.Buffer
	w := NewLineWriter(&b, errGone)
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Send(map[string]any{"text": strings.Repeat("x", 100)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if l != `{"text":"`+strings.Repeat("x", 100)+`"}` {
			t.Fatalf("a line was interleaved: %q", l)
		}
	}
	if err := w.Send(func() {}); err == nil || errors.Is(err, errGone) {
		t.Errorf("a value that does not marshal: %v", err)
	}
	r, pw := io.Pipe()
	r.Close()
	if err := NewLineWriter(pw, errGone).Send(1); !errors.Is(err, errGone) {
		t.Errorf("a write to a child that has gone: %v", err)
	}
}
