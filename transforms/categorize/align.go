package categorize

// Change is one token-level difference between two texts. From is empty for
// an insertion and To for a deletion.
type Change struct {
	Kind TokenKind `json:"kind"`
	From string    `json:"from"`
	To   string    `json:"to"`
}

// MaxDiffCells bounds the dynamic-programming table of one alignment
// (tokens of a × tokens of b, after their common prefix and suffix). Beyond
// it the differing middles are reported as one replacement, so that a
// pathological input costs linear time and memory.
const MaxDiffCells = 1 << 18

// hunk says that tokens a[A0:A1] were replaced by b[B0:B1]. One side may be
// empty (a pure insertion or deletion); a hunk with one token on each side
// whose keys are equal is a change of case only.
type hunk struct{ A0, A1, B0, B1 int }

// Align returns the token differences between a and b, in order, computed on
// a longest common subsequence of case-folded tokens. Within a run of
// differences, deleted and inserted tokens are paired in order as
// replacements, punctuation with punctuation and other tokens with other
// tokens; the rest are insertions or deletions. A token that matches with a
// different case is a change of its own ("The" → "the").
func Align(a, b []Token) []Change {
	var changes []Change
	for _, h := range diff(a, b) {
		changes = appendChanges(changes, a[h.A0:h.A1], b[h.B0:h.B1])
	}
	return changes
}

// appendChanges appends the changes of one hunk to dst.
func appendChanges(dst []Change, from, to []Token) []Change {
	var fromPunct, fromOther, toPunct, toOther []Token
	for _, t := range from {
		if t.Kind == KindPunct {
			fromPunct = append(fromPunct, t)
		} else {
			fromOther = append(fromOther, t)
		}
	}
	for _, t := range to {
		if t.Kind == KindPunct {
			toPunct = append(toPunct, t)
		} else {
			toOther = append(toOther, t)
		}
	}
	dst = appendPaired(dst, fromOther, toOther)
	return appendPaired(dst, fromPunct, toPunct)
}

// appendPaired pairs from[i] with to[i] and appends the leftovers as
// deletions or insertions.
func appendPaired(dst []Change, from, to []Token) []Change {
	for i := range max(len(from), len(to)) {
		var c Change
		switch {
		case i < len(from) && i < len(to):
			c = Change{Kind: from[i].Kind, From: from[i].Text, To: to[i].Text}
			if to[i].Kind.rank() > c.Kind.rank() {
				c.Kind = to[i].Kind
			}
		case i < len(from):
			c = Change{Kind: from[i].Kind, From: from[i].Text}
		default:
			c = Change{Kind: to[i].Kind, To: to[i].Text}
		}
		dst = append(dst, c)
	}
	return dst
}

// diff returns the hunks that turn a into b, in order.
func diff(a, b []Token) []hunk {
	ka, kb := keys(a), keys(b)
	var hunks []hunk
	// Common prefix and suffix need no table.
	p := 0
	for p < len(a) && p < len(b) && ka[p] == kb[p] {
		hunks = appendCase(hunks, a, b, p, p)
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && ka[len(a)-1-s] == kb[len(b)-1-s] {
		s++
	}
	n, m := len(a)-p-s, len(b)-p-s
	switch {
	case n == 0 && m == 0:
	case n == 0 || m == 0 || n*m > MaxDiffCells:
		hunks = append(hunks, hunk{p, p + n, p, p + m})
	default:
		hunks = lcsHunks(hunks, ka[p:p+n], kb[p:p+m], a, b, p)
	}
	for i := range s {
		hunks = appendCase(hunks, a, b, p+n+i, p+m+i)
	}
	return hunks
}

// keys returns the comparison keys of toks.
func keys(toks []Token) []string {
	k := make([]string, len(toks))
	for i, t := range toks {
		k[i] = t.key()
	}
	return k
}

// appendCase appends a one-token hunk if the matched tokens a[i] and b[j]
// differ in case.
func appendCase(hunks []hunk, a, b []Token, i, j int) []hunk {
	if a[i].Text != b[j].Text {
		hunks = append(hunks, hunk{i, i + 1, j, j + 1})
	}
	return hunks
}

// lcsHunks appends the hunks between ka and kb, the middles of a and b
// starting at offset off, found with a longest-common-subsequence table.
func lcsHunks(hunks []hunk, ka, kb []string, a, b []Token, off int) []hunk {
	n, m := len(ka), len(kb)
	w := m + 1
	// table[i*w+j] = LCS length of ka[i:] and kb[j:]; row n and column m
	// stay 0.
	table := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				table[i*w+j] = table[(i+1)*w+j+1] + 1
			} else {
				table[i*w+j] = max(table[(i+1)*w+j], table[i*w+j+1])
			}
		}
	}
	open := false
	var h hunk
	flush := func(i, j int) {
		if open {
			h.A1, h.B1 = off+i, off+j
			hunks = append(hunks, h)
			open = false
		}
	}
	start := func(i, j int) {
		if !open {
			h = hunk{A0: off + i, B0: off + j}
			open = true
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case ka[i] == kb[j]:
			flush(i, j)
			hunks = appendCase(hunks, a, b, off+i, off+j)
			i++
			j++
		case table[(i+1)*w+j] >= table[i*w+j+1]:
			start(i, j)
			i++
		default:
			start(i, j)
			j++
		}
	}
	if i < n || j < m {
		start(i, j)
	}
	flush(n, m)
	return hunks
}
