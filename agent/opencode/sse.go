package opencode

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseReader reads server-sent events: it returns each event's data (its
// "data:" lines joined by "\n"), skipping comments and other fields.
type sseReader struct {
	r    *bufio.Reader
	data bytes.Buffer
}

// maxEventSize bounds one event's data; a longer one is an error.
const maxEventSize = 32 << 20

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the data of the next event that has some, or the read
// error (io.EOF at the end of the stream).
func (s *sseReader) next() ([]byte, error) {
	s.data.Reset()
	has := false
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(buf) > maxEventSize {
					return nil, errEventTooBig
				}
				line, err = s.r.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if has {
				return bytes.Clone(s.data.Bytes()), nil
			}
			if err == io.EOF {
				return nil, io.EOF
			}
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			v = bytes.TrimPrefix(v, []byte(" "))
			if has {
				s.data.WriteByte('\n')
			}
			s.data.Write(v)
			has = true
			if s.data.Len() > maxEventSize {
				return nil, errEventTooBig
			}
		}
		if err == io.EOF {
			if has {
				return bytes.Clone(s.data.Bytes()), nil
			}
			return nil, io.EOF
		}
	}
}

type sseError string

func (e sseError) Error() string { return string(e) }

const errEventTooBig = sseError("an event of the OpenCode server's stream is larger than 32 MiB")
