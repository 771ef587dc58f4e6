package child

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrLineTooLong is returned by ReadLine for a line longer than its bound.
var ErrLineTooLong = errors.New("line too long")

// tooLongHead is how much of an overlong line ReadLine returns.
const tooLongHead = 200

// ReadLine reads one line of at most max bytes from br, newline included.
// A longer line is drained to its end and returned with ErrLineTooLong as
// at most its first 200 bytes (what was read before the bound was
// crossed, maybe nothing), so it is never buffered whole. A last line
// without a newline is returned with a nil error; after it, the reader's
// error (io.EOF at the end).
func ReadLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= max {
			buf = append(buf, chunk...)
		} else {
			tooLong = true
		}
		switch {
		case err == nil && tooLong:
			return buf[:min(len(buf), tooLongHead)], ErrLineTooLong
		case err == nil:
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(buf) > 0 && errors.Is(err, io.EOF):
			return buf, nil
		default:
			return nil, err
		}
	}
}

// ReadLines reads r to its end one line at a time, each bounded by max
// bytes (see ReadLine). It calls line with every line that is not blank,
// trimmed of surrounding white space, and tooLong with the head of every
// line longer than max, in the order they come. It returns why the reading
// ended: io.EOF when r ended, else r's error. Both callbacks run on the
// caller's goroutine.
func ReadLines(r io.Reader, max int, line func([]byte), tooLong func(head []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		b, err := ReadLine(br, max)
		if errors.Is(err, ErrLineTooLong) {
			tooLong(b)
			continue
		}
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		if err != nil {
			return err
		}
		if b = bytes.TrimSpace(b); len(b) > 0 {
			line(b)
		}
	}
}
