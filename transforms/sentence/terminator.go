package sentence

import (
	"unicode"
	"unicode/utf8"
)

// Kinds of terminator.
const (
	notTerminator      = iota
	latinTerminator    // needs a space and a sentence-starting word after it
	caselessTerminator // needs a space after it
	cjkTerminator      // needs nothing after it
)

// terminatorKind returns the kind of terminator c is under the rules r.
func (r *Rules) terminatorKind(c rune) int {
	if c < utf8.RuneSelf {
		return int(r.ascii[c])
	}
	return terminatorKind(c)
}

// terminatorKind returns the kind of terminator the non-ASCII rune c is:
// a rune of Unicode's Sentence_Terminal or one of a few additions, less
// the clause separators (see the package comment).
func terminatorKind(c rune) int {
	switch {
	case c < 0x0589:
		// No terminator below the Armenian full stop but the Greek
		// question mark: a quick answer for Latin, Greek and Cyrillic.
		if c == '\u037e' {
			return latinTerminator
		}
		return notTerminator
	case 0x3003 <= c && c < 0xA4FF, 0xABEC <= c && c < 0xFE52:
		// None among CJK ideographs, kana and Hangul.
		return notTerminator
	}
	switch c {
	case '։', '…', '‼', '⁇', '⁈', '⁉', '‽', '⸮':
		return latinTerminator
	case '。', '｡', '．', '！', '？', '﹒', '﹖', '﹗', '။', '።', '፧', '፨', '។', '៕':
		return cjkTerminator
	case '၊', '᭞', '꧈':
		return notTerminator
	case '།', '༎', '෴':
		return caselessTerminator
	}
	if unicode.Is(unicode.Sentence_Terminal, c) {
		return caselessTerminator
	}
	return notTerminator
}
