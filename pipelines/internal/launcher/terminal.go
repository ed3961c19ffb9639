package launcher

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// TerminalSafe returns a writer that passes to w what is written to it with
// the characters that would act on a terminal escaped: C0 and C1 controls
// and DEL as \xNN (ESC and OSC sequences, a carriage return that would
// overwrite a line), a line feed inside a write (a title holding one would
// fake a line; the one ending a write is the line's own), the bidirectional
// controls as \uNNNN (an RLO would reverse what follows) and invalid UTF-8
// as \xNN. The commands print the run's titles and corpus names, which come
// from the input, through it.
func TerminalSafe(w io.Writer) io.Writer { return terminalWriter{w} }

type terminalWriter struct{ w io.Writer }

func (t terminalWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == '\n' && i+size == len(p), r == '\t':
			out = append(out, p[i])
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, p[i])
		case r < 0x100 && unicode.IsControl(r):
			out = fmt.Appendf(out, `\x%02x`, r)
		case unicode.Is(unicode.Bidi_Control, r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
