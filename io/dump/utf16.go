package dump

import (
	"bytes"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Byte order marks recognised at the start of a stream.
var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// utf16Reader transcodes a UTF-16 byte stream (without its byte order mark)
// to UTF-8. Unpaired surrogates and a dangling odd byte at the end become
// U+FFFD.
type utf16Reader struct {
	src       io.Reader
	bigEndian bool
	raw       []byte // raw input; raw[:odd] holds a carried odd byte
	odd       int    // 0 or 1
	high      rune   // pending high surrogate, or -1
	buf       []byte // backing array of out
	out       []byte // UTF-8 produced but not yet returned
	err       error  // sticky error from src
}

func newUTF16Reader(src io.Reader, bigEndian bool) *utf16Reader {
	return &utf16Reader{src: src, bigEndian: bigEndian, raw: make([]byte, 32<<10), high: -1}
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.decodeMore()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// decodeMore reads one chunk from src and appends its UTF-8 encoding to out.
func (u *utf16Reader) decodeMore() {
	n, err := u.src.Read(u.raw[u.odd:])
	n += u.odd
	u.out = u.buf[:0]
	defer func() { u.buf = u.out[:0] }()
	even := n &^ 1
	for i := 0; i < even; i += 2 {
		u.put(u.unit(u.raw[i], u.raw[i+1]))
	}
	u.odd = n - even
	if u.odd == 1 {
		u.raw[0] = u.raw[n-1]
	}
	if err != nil {
		u.err = err
		if err == io.EOF {
			u.flush()
		}
	}
}

func (u *utf16Reader) unit(b0, b1 byte) rune {
	if u.bigEndian {
		return rune(b0)<<8 | rune(b1)
	}
	return rune(b1)<<8 | rune(b0)
}

// put appends the code unit c, pairing surrogates.
func (u *utf16Reader) put(c rune) {
	if u.high >= 0 {
		high := u.high
		u.high = -1
		if r := utf16.DecodeRune(high, c); r != utf8.RuneError {
			u.out = utf8.AppendRune(u.out, r)
			return
		}
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
	}
	switch {
	case 0xD800 <= c && c < 0xDC00:
		u.high = c
	case 0xDC00 <= c && c < 0xE000:
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
	default:
		u.out = utf8.AppendRune(u.out, c)
	}
}

// flush ends the stream: a pending surrogate or odd byte is an error.
func (u *utf16Reader) flush() {
	if u.high >= 0 {
		u.high = -1
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
	}
	if u.odd == 1 {
		u.odd = 0
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
	}
}

// detectBOM looks at the first bytes of a stream, head, for a byte
// order mark. It returns how many bytes the mark takes and, for UTF-16,
// which byte order.
func detectBOM(head []byte) (skip int, utf16 bool, bigEndian bool) {
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		return len(bomUTF8), false, false
	case bytes.HasPrefix(head, bomUTF16LE):
		return len(bomUTF16LE), true, false
	case bytes.HasPrefix(head, bomUTF16BE):
		return len(bomUTF16BE), true, true
	}
	return 0, false, false
}
