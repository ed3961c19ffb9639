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
// the clause separators (docs/input.md, "How sentences are split").
func terminatorKind(c rune) int {
	switch {
	case c < 0x0589:
		// No terminator below the Armenian full stop but the Greek
		// question mark: a quick answer for Latin, Greek and Cyrillic.
		if c == '\u037e' {
			return latinTerminator
		}
		return notTerminator
	case c <= 0xFFFF && bmpTerminators[c>>6]&(1<<(c&63)) == 0:
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

// bmpTerminators has a bit set for each rune of the Basic Multilingual
// Plane that terminatorKind may classify as a terminator: those of
// Sentence_Terminal and the additions. It spares most runes the search of
// the Unicode table; it is never written after initialisation.
var bmpTerminators = func() (bits [0x10000 / 64]uint64) {
	set := func(c rune) { bits[c>>6] |= 1 << (c & 63) }
	for _, r := range unicode.Sentence_Terminal.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			set(c)
		}
	}
	for _, c := range "\u037e…។៕།༎෴" {
		set(c)
	}
	return bits
}()
