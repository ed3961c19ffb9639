package categorize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/numeral"
)

// TokenKind says what a token is, as far as the classification cares.
type TokenKind string

// Token kinds, from least to most substantive.
const (
	KindPunct  TokenKind = "punct"  // punctuation or symbol
	KindWord   TokenKind = "word"   // lower-case or sentence-initial function word
	KindName   TokenKind = "name"   // capitalised word or acronym
	KindNumber TokenKind = "number" // 7, 4.5, 1,000, 40.4%, 3rd
	KindDate   TokenKind = "date"   // a year (1000–2099, 1990s) or a month name
	KindTitle  TokenKind = "title"  // a word of the member's own page title (set by Classify)
)

// rank orders kinds by substance, so a change from one kind to another takes
// the more substantive of the two.
func (k TokenKind) rank() int {
	switch k {
	case KindWord:
		return 1
	case KindName:
		return 2
	case KindNumber:
		return 3
	case KindDate:
		return 4
	case KindTitle:
		return 5
	}
	return 0
}

// Token is a word, number or punctuation mark of a sentence.
type Token struct {
	Text string    `json:"text"`
	Kind TokenKind `json:"kind"`

	lower string // Text in lower case, kept by newToken; "" if not kept
}

// newToken returns a token that keeps its key, so the many comparisons and
// word-list lookups of a classification compute it once.
func newToken(text string, kind TokenKind) Token {
	return Token{Text: text, Kind: kind, lower: canonicalKey(strings.ToLower(text), kind)}
}

// key is the token as compared by the alignment: case-folded and
// canonical (see equiv.go), so that a change of case or of form is seen as
// an edit of the same token.
func (t Token) key() string {
	if t.lower != "" || t.Text == "" {
		return t.lower
	}
	return strings.ToLower(t.Text)
}

// Tokenize splits text into words, numbers and punctuation marks.
//
//   - A number is a run of decimal digits of one script (any of
//     unicode.Nd: 7, ৭, ७, ٧) with inner "," or "." before a digit and an
//     optional "%" or ordinal/plural suffix: 7, 4.5, 1,000, 40.4%, 3rd,
//     1990s, ৮৭৪৯; or a number word from two to ninety-nine (nine,
//     twenty-one). A year from 1000 to 2099 (or its decade, "1990s") is a
//     date, in any script's digits (১৯৭১). A number's key is written in
//     ASCII digits, so ৮৭৪৯ and 8749 are one number.
//   - A word is a run of letters, digits and marks, joined by inner hyphens
//     and apostrophes (Springer-Verlag, Wikipedia's); a dotted acronym keeps
//     its dots (U.S., e.g.). A word starting with an upper-case letter is a
//     date if it is a month name and a name otherwise, except a function word
//     that starts the sentence or follows ".", "!", "?" or ":" ("The", "In"),
//     or a participle in -ed or -ing that starts the sentence before a
//     preposition ("Inspired by"). Other words are words.
//   - Every other non-space character is a punctuation token of its own.
func Tokenize(text string) []Token {
	return tokenize(make([]Token, 0, len(text)/4+1), text, true)
}

// tokenize is Tokenize, appending to toks (empty); without keyed, the
// tokens have the same texts and kinds but no canonical keys (canonicalKey,
// the costly part: NFKC and the tables), which only the alignment needs:
// key() is then the lower case.
func tokenize(toks []Token, text string, keyed bool) []Token {
	start := true // at the start of a sentence or clause
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		var end int
		var kind TokenKind
		switch {
		case unicode.IsSpace(r):
			i += size
			continue
		case isDigit(r):
			var digits string
			end, digits = scanNumber(text, i)
			kind = numberKind(digits)
		case (r == '\'' || r == '’') && shortYear(text[i+size:]) > 0:
			end = i + size + shortYear(text[i+size:]) // '98: a year written with two digits
			kind = KindNumber
		case unicode.IsLetter(r):
			end = scanWord(text, i)
		default:
			end = i + size
			kind = KindPunct
		}
		if kind == "" {
			end = splitNumberCompound(text, i, end)
		}
		var key string
		switch {
		case !keyed && kind != "":
			// A number or punctuation: its text and kind are enough.
		case !keyed && r >= utf8.RuneSelf:
			// A word of another script: no table (function words,
			// months, number words) holds it.
			kind = KindWord
			if unicode.IsUpper(r) {
				kind = KindName
			}
		default:
			lower := strings.ToLower(text[i:end])
			if kind == "" {
				kind, key = plainWordKind(text[i:end], lower, start)
			}
			if key == "" {
				key = lower
				if keyed {
					key = canonicalKey(lower, kind)
				}
			}
		}
		tok := Token{Text: text[i:end], Kind: kind, lower: key}
		if n := len(toks); n > 0 && toks[n-1].Kind == KindName && isParticiple(toks[n-1], tok.Text, toks[:n-1]) {
			toks[n-1].Kind = KindWord
		}
		toks = append(toks, tok)
		start = kind == KindPunct && strings.ContainsAny(tok.Text, ".!?:")
		i = end
	}
	if len(toks) == 0 {
		return nil
	}
	return toks
}

// isParticiple reports whether word, a capitalised word after the tokens
// before, is a participle opening a sentence ("Inspired by", "Located
// in"): it ends in -ed or -ing, starts the sentence and is followed by a
// preposition. Such a word is not a name.
func isParticiple(word Token, next string, before []Token) bool {
	if !participlePrepositions[next] {
		return false
	}
	if key := word.key(); !strings.HasSuffix(key, "ed") && !strings.HasSuffix(key, "ing") {
		return false
	}
	n := len(before)
	return n == 0 || before[n-1].Kind == KindPunct && strings.ContainsAny(before[n-1].Text, ".!?:")
}

// isDigit reports whether r is a decimal digit of any script.
func isDigit(r rune) bool { return numeral.IsDigit(r) }

// scanNumber returns the end of the number starting at text[i] and the
// number in ASCII digits, its suffix included ("1990s" for "১৯৯০s").
func scanNumber(text string, i int) (int, string) {
	n, _ := numeral.Scan(text, i)
	suffix := numberSuffix(text[n.End:])
	if suffix == 0 {
		return n.End, n.ASCII
	}
	end := n.End + suffix
	if n.Zero == '0' {
		return end, text[i:end]
	}
	return end, n.ASCII + text[n.End:end]
}

// numberSuffix returns the length of a "%" or of an ordinal or plural suffix
// (st, nd, rd, th, s) that ends a number, or 0.
func numberSuffix(rest string) int {
	if strings.HasPrefix(rest, "%") {
		return 1
	}
	for _, s := range []string{"st", "nd", "rd", "th", "s"} {
		if strings.HasPrefix(rest, s) {
			if r, _ := utf8.DecodeRuneInString(rest[len(s):]); !unicode.IsLetter(r) && !isDigit(r) {
				return len(s)
			}
		}
	}
	return 0
}

// numberKind tells a year (or decade) from another number, given in
// ASCII digits.
func numberKind(tok string) TokenKind {
	digits := strings.TrimSuffix(tok, "s")
	if len(digits) == 4 && (digits[0] == '1' || digits[0] == '2' && digits[1] == '0') {
		allDigits := true
		for i := range len(digits) {
			allDigits = allDigits && isASCIIDigit(digits[i])
		}
		if allDigits {
			return KindDate
		}
	}
	return KindNumber
}

// scanWord returns the end of the word starting at text[i].
func scanWord(text string, i int) int {
	if end, ok := scanAcronym(text, i); ok {
		return end
	}
	for i < len(text) {
		if c := text[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsLetter(r) || isDigit(r) || unicode.IsMark(r):
			i += size
		case r == '-' || r == '\'' || r == '’' || r == '‐' || r == '‑':
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsLetter(next) && !isDigit(next) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// scanAcronym matches two or more single letters each followed by a period
// (U.S., e.g., U.S.A.) and returns the end of the match.
func scanAcronym(text string, i int) (int, bool) {
	n := 0
	for {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) || i+size >= len(text) || text[i+size] != '.' {
			break
		}
		after, _ := utf8.DecodeRuneInString(text[i+size+1:])
		i += size + 1
		n++
		if unicode.IsLetter(after) {
			// Continue only with another single letter: "U.S." but not "e.The".
			if r2, s2 := utf8.DecodeRuneInString(text[i:]); i+s2 < len(text) && text[i+s2] == '.' && unicode.IsLetter(r2) {
				continue
			}
		}
		break
	}
	return i, n >= 2
}

// wordKind classifies a word token.
// plainWordKind is wordKind and canonicalKey of a word, with one table
// lookup when the word is plain (ASCII, no period or hyphen: most words);
// otherwise it returns wordKind and no key.
func plainWordKind(word, lower string, sentenceStart bool) (TokenKind, string) {
	if !isASCII(lower) || strings.ContainsAny(lower, ".-") {
		return wordKind(Token{Text: word, lower: lower}, sentenceStart), ""
	}
	p, ok := plainWords[lower]
	if p.number {
		return KindNumber, p.key
	}
	if !ok {
		p.key = americanSuffix(lower)
	}
	kind := nameKind(word, lower, sentenceStart)
	if kind == KindDate {
		return kind, "" // a month: canonicalKey keys it as a date
	}
	return kind, p.key
}

func wordKind(t Token, sentenceStart bool) TokenKind {
	tok, key := t.Text, t.key()
	if _, ok := numberWordValue(key); ok {
		return KindNumber
	}
	return nameKind(tok, key, sentenceStart)
}

func nameKind(tok, key string, sentenceStart bool) TokenKind {
	first, _ := utf8.DecodeRuneInString(tok)
	if !unicode.IsUpper(first) {
		return KindWord // also "may", "march": verbs, not months
	}
	if sentenceStart && functionWords[key] || key == "i" {
		return KindWord // "The", "In", "May" starting a sentence; "I"
	}
	if months[key] && !acronymCase(tok, key) {
		return KindDate
	}
	return KindName
}

// acronymCase reports whether tok, a word whose lower case is key, is an
// abbreviation of a month written in capitals ("DEC", "MAR"): an acronym,
// as in prose it is (Digital Equipment Corporation), not a month.
func acronymCase(tok, key string) bool {
	return monthAbbreviations[key] && strings.ToUpper(tok) == tok
}

// splitNumberCompound returns the end of the first part of the word
// text[i:end] if that part is a number word joined by a hyphen to a word
// ("seven-bit", "third-largest"), so that it is written as "7-bit" is;
// otherwise end. Compound numbers ("twenty-one") stay whole.
func splitNumberCompound(text string, i, end int) int {
	word := text[i:end]
	switch word[0] { // every number word starts with one of these
	case 'e', 'f', 'n', 's', 't', 'E', 'F', 'N', 'S', 'T':
	default:
		return end
	}
	cut := strings.IndexByte(word, '-')
	if cut < 0 && !isASCII(word) {
		cut = strings.IndexAny(word, "‐‑")
	}
	if cut <= 0 {
		return end
	}
	lower := strings.ToLower(word)
	if _, whole := numberWordValue(lower); whole {
		return end
	}
	if _, ok := numberWordValue(lower[:cut]); !ok {
		return end
	}
	return i + cut
}

// shortYear returns the length of the two digits (of one script) that
// start rest, the text after an apostrophe, if no third digit follows
// ('98, ’05, '৯৮), or 0.
func shortYear(rest string) int {
	r1, s1 := utf8.DecodeRuneInString(rest)
	z, ok := numeral.Zero(r1)
	if !ok {
		return 0
	}
	r2, s2 := utf8.DecodeRuneInString(rest[s1:])
	if r2 < z || r2 > z+9 {
		return 0
	}
	if r3, _ := utf8.DecodeRuneInString(rest[s1+s2:]); isDigit(r3) {
		return 0
	}
	return s1 + s2
}
