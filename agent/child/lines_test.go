package child

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadLine(t *testing.T) {
	const max = 100
	long := strings.Repeat("x", max+10)
	for _, c := range []struct {
		name  string
		input string
		want  []string // each line read, "!" + error text for an error
	}{
		{"lines keep their newline", "a\nb\n", []string{"a\n", "b\n", "!EOF"}},
		{"a last line without a newline", "a\nb", []string{"a\n", "b", "!EOF"}},
		{"an overlong line is skipped", long + "\n" + `{"ok":1}` + "\n", []string{"!too long", `{"ok":1}` + "\n", "!EOF"}},
		{"a line of exactly max bytes", strings.Repeat("y", max-1) + "\n", []string{strings.Repeat("y", max-1) + "\n", "!EOF"}},
		{"nothing", "", []string{"!EOF"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(c.input), 16)
			var got []string
			for {
				line, err := ReadLine(br, max)
				switch {
				case errors.Is(err, ErrLineTooLong):
					if len(line) > 200 || !strings.HasPrefix(c.input, string(line)) {
						t.Errorf("the head of an overlong line is %q", line)
					}
					got = append(got, "!too long")
					continue
				case err != nil:
					got = append(got, "!"+err.Error())
				default:
					got = append(got, string(line))
					continue
				}
				break
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("read %q, want %q", got, c.want)
			}
		})
	}
}

func TestReadLineOfTheRealBound(t *testing.T) {
	const max = 32 << 20
	br := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", max+10)+"\n{\"type\":\"ok\"}\n"), 64<<10)
	line, err := ReadLine(br, max)
	if !errors.Is(err, ErrLineTooLong) || len(line) > 200 {
		t.Fatalf("overlong line: %d bytes, %v", len(line), err)
	}
	if line, err := ReadLine(br, max); err != nil || string(line) != "{\"type\":\"ok\"}\n" {
		t.Fatalf("the next line: %q %v", line, err)
	}
}

func TestReadLines(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name    string
		r       io.Reader
		lines   []string
		tooLong []string
		err     error
	}{
		{"trimmed, blank lines skipped", strings.NewReader("  a  \n\n \t\nb\r\nc"), []string{"a", "b", "c"}, nil, io.EOF},
		{"overlong lines reported in order", strings.NewReader("a\n" + strings.Repeat("z", 300) + "\nb\n"), []string{"a", "b"}, []string{"z…"}, io.EOF},
		{"a reader's error ends it", io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(boom)), []string{"a"}, nil, boom},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lines, tooLong []string
			err := ReadLines(c.r, 256, func(b []byte) { lines = append(lines, string(b)) }, func(b []byte) {
				if len(b) > 200 || strings.Trim(string(b), "z") != "" {
					t.Errorf("the head of an overlong line is %q", b)
				}
				tooLong = append(tooLong, "z…")
			})
			if !errors.Is(err, c.err) {
				t.Errorf("ended with %v, want %v", err, c.err)
			}
			if strings.Join(lines, "|") != strings.Join(c.lines, "|") || strings.Join(tooLong, "|") != strings.Join(c.tooLong, "|") {
				t.Errorf("lines %q, too long %q; want %q, %q", lines, tooLong, c.lines, c.tooLong)
			}
		})
	}
}
