package categorize

import (
	"slices"
	"strconv"
	"strings"
)

// Radix forms: a code in another base is written with the base's name
// after it ("20hex", "7Fhex") or with the base in figures as a subscript
// ("20<sub>16</sub>"), which the cleaned text runs on as "2016", "7F16".
// The two are one value: dropRadixForms removes them from both sides.

// radixNames are the names of the bases that follow a code written in
// them, and the base each names: the abbreviations of programming and
// data sheets, written the same in every language's text.
var radixNames = map[string]int{
	"hex": 16, "hexadecimal": 16,
	"oct": 8, "octal": 8,
	"bin": 2, "binary": 2,
	"dec": 10, "decimal": 10,
}

// dropRadixForms removes from rem (of a) and add (of b) each code written
// with the name of its base on one side and the same code followed by the
// base in figures on the other ("20hex" and "2016"; "Ehex" and "E16", the
// "5" of "5Ehex" being the same on both sides). A code is one token or
// two adjacent ones ("20", "hex").
func (p *pair) dropRadixForms(a []Token, rem []int, b []Token, add []int) ([]int, []int) {
	if !namesRadix(a, rem) && !namesRadix(b, add) {
		return rem, add // the cheap answer for nearly every hunk
	}
	for k := 0; k < len(rem); k++ {
		matched := false
		for _, x := range codeRuns(a, rem, k) {
			for n := range add {
				for _, y := range codeRuns(b, add, n) {
					if !sameRadixCode(x.text, y.text) && !sameRadixCode(y.text, x.text) {
						continue
					}
					p.numberForm(x.text, y.text, false)
					rem = slices.Delete(rem, k, k+x.n)
					add = slices.Delete(add, n, n+y.n)
					matched = true
					break
				}
				if matched {
					break
				}
			}
			if matched {
				break
			}
		}
		if matched {
			k--
		}
	}
	return rem, add
}

// codeRun is the text of idx[k:k+n] (tokens of one text) run together.
type codeRun struct {
	text string
	n    int
}

// codeRuns returns the runs that may write a code starting at idx[k]: the
// token, and with the next one if it is adjacent.
func codeRuns(toks []Token, idx []int, k int) []codeRun {
	out := []codeRun{{toks[idx[k]].Text, 1}}
	if k+1 < len(idx) && idx[k+1] == idx[k]+1 {
		out = append(out, codeRun{toks[idx[k]].Text + toks[idx[k+1]].Text, 2})
	}
	return out
}

// sameRadixCode reports whether named is a code followed by the name of a
// base (radixNames) and subscript the same code followed by that base in
// ASCII figures, the code being digits of that base.
func sameRadixCode(named, subscript string) bool {
	lower := strings.ToLower(named)
	for name, base := range radixNames {
		code, ok := strings.CutSuffix(lower, name)
		if !ok || code == "" || !strings.EqualFold(subscript, named[:len(code)]+strconv.Itoa(base)) {
			continue
		}
		if !slices.ContainsFunc([]byte(code), func(c byte) bool { return !isRadixDigit(c, base) }) {
			return true
		}
	}
	return false
}

// isRadixDigit reports whether c (lower case) is a digit of base.
func isRadixDigit(c byte, base int) bool {
	v, err := strconv.ParseUint(string(c), base, 8)
	return err == nil && int(v) < base
}

// namesRadix reports whether a token of toks[idx] ends with the name of a
// base (radixNames).
func namesRadix(toks []Token, idx []int) bool {
	for _, i := range idx {
		k := toks[i].key()
		for name := range radixNames {
			if len(k) > len(name) && strings.HasSuffix(k, name) || k == name {
				return true
			}
		}
	}
	return false
}
