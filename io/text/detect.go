package text

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/neardup/neardup/io/dump"
)

// checkBytes is how much of a file's decompressed head CheckText looks at.
const checkBytes = 1024

// headBytes is how much of a file's decompressed head Detect reads: the
// bytes CheckText looks at, after room for leading white space.
const headBytes = 64 << 10

// utf8BOM is the UTF-8 byte order mark, skipped at the start of a file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// BinaryError refuses a file given as text whose head is not UTF-8 text.
type BinaryError struct {
	File   string
	Offset int64  // decompressed offset of the first bad byte
	Why    string // "a NUL byte", "invalid UTF-8", "UTF-16 text"
	Head   []byte // the first bytes of the file
}

func (e *BinaryError) Error() string {
	return fmt.Sprintf("%s is not UTF-8 text: %s at offset %d of its first KB (first bytes: %q); give a MediaWiki XML dump, JSON lines or plain text",
		e.File, e.Why, e.Offset, e.Head)
}

// shownBytes is how many of a file's first bytes a BinaryError shows.
const shownBytes = 16

// Detect returns the format of file by its content after decompression
// (dump.Open): MediaWiki XML if its first character other than white space
// (and a byte order mark) is '<', or if it has none (an empty file is read
// as an empty dump); WARC (or WET) if it starts with a WARC version line
// ("WARC/1.0", "WARC/1.1"); JSON lines if it is '{'; plain text otherwise. A file
// that is not XML and whose first KB holds a NUL byte or invalid UTF-8 is
// refused with a *BinaryError; so is UTF-16 that is not XML. A compressed
// file whose head cannot be decompressed is taken for a dump, whose reader
// reports the damage. A local directory is an error naming it.
func Detect(ctx context.Context, file string) (Format, error) {
	if err := notDirectory(file); err != nil {
		return 0, err
	}
	head, err := ReadHead(ctx, file)
	if err != nil {
		return 0, err
	}
	return DetectHead(file, head)
}

// ReadHead returns the first 64 KiB of file's decompressed content (all of
// it if shorter): as much as could be decompressed of a damaged file. Only
// an error of the file itself is an error.
func ReadHead(ctx context.Context, file string) ([]byte, error) {
	rc, err := dump.Open(ctx, file)
	if err != nil {
		return nil, fmt.Errorf("text: %w", err)
	}
	defer rc.Close()
	head := make([]byte, headBytes)
	n, err := io.ReadFull(rc, head)
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), dump.IsDecodeFailure(err):
		return head[:n], nil
	}
	return nil, fmt.Errorf("text: reading the head of %s: %w", file, err)
}

// DetectHead is Detect on the first bytes of the file's content.
func DetectHead(file string, head []byte) (Format, error) {
	if isUTF16(head) {
		if firstUTF16(head) == '<' {
			return MediaWiki, nil // package dump transcodes it
		}
		return 0, &BinaryError{File: file, Why: "UTF-16 text", Head: shown(head)}
	}
	body := bytes.TrimPrefix(head, utf8BOM)
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) == 0 || body[0] == '<' {
		return MediaWiki, nil
	}
	if bytes.HasPrefix(body, []byte("WARC/1.")) {
		return WARC, nil
	}
	if err := CheckText(file, head); err != nil {
		return 0, err
	}
	if body[0] == '{' {
		return JSONL, nil
	}
	return Plain, nil
}

// CheckText refuses, with a *BinaryError, a file whose first KB (of head,
// its first bytes) holds a NUL byte or invalid UTF-8: a binary file given as
// text. A character that starts in the first KB and ends after it is
// checked whole.
func CheckText(file string, head []byte) error {
	for i := 0; i < len(head) && i < checkBytes; {
		r, size := utf8.DecodeRune(head[i:])
		switch {
		case r == 0:
			return &BinaryError{File: file, Offset: int64(i), Why: "a NUL byte", Head: shown(head)}
		case r == utf8.RuneError && size == 1:
			why := "invalid UTF-8"
			if isUTF16(head) {
				why = "UTF-16 text"
			}
			return &BinaryError{File: file, Offset: int64(i), Why: why, Head: shown(head)}
		}
		i += size
	}
	return nil
}

func shown(head []byte) []byte {
	return bytes.Clone(head[:min(len(head), shownBytes)])
}

// isUTF16 reports whether head starts with a UTF-16 byte order mark.
func isUTF16(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF})
}

// firstUTF16 returns the first character other than white space of UTF-16
// text that starts with its byte order mark, or -1.
func firstUTF16(head []byte) rune {
	little := head[0] == 0xFF
	units := make([]uint16, 0, len(head)/2)
	for i := 2; i+1 < len(head); i += 2 {
		if little {
			units = append(units, uint16(head[i])|uint16(head[i+1])<<8)
		} else {
			units = append(units, uint16(head[i])<<8|uint16(head[i+1]))
		}
	}
	for _, r := range utf16.Decode(units) {
		switch r {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return r
	}
	return -1
}
