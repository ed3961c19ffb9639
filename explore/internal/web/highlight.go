package web

import "github.com/neardup/neardup/transforms/categorize"

// highlight cuts each text into segments, the changed ones being what
// differs from the first text (categorize.Segments); in the first text,
// what differs in any other.
func highlight(texts []string) [][]categorize.Segment {
	out := make([][]categorize.Segment, len(texts))
	if len(texts) == 0 {
		return out
	}
	first := texts[0]
	changed := make([]bool, len(first)) // by byte of first
	done := map[string][]categorize.Segment{first: {{Text: first}}}
	for i, t := range texts[1:] {
		if segs, ok := done[t]; ok {
			out[i+1] = segs
			continue
		}
		sa, sb := categorize.Segments(first, t)
		out[i+1], done[t] = sb, sb
		pos := 0
		for _, s := range sa {
			if s.Changed {
				for k := pos; k < pos+len(s.Text); k++ {
					changed[k] = true
				}
			}
			pos += len(s.Text)
		}
	}
	out[0] = runs(first, changed)
	return out
}

// runs cuts text into segments of bytes that are all changed or all not.
func runs(text string, changed []bool) []categorize.Segment {
	var out []categorize.Segment
	for i := 0; i < len(text); {
		j := i + 1
		for j < len(text) && changed[j] == changed[i] {
			j++
		}
		out = append(out, categorize.Segment{Text: text[i:j], Changed: changed[i]})
		i = j
	}
	return out
}
