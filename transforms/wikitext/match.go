package wikitext

import "strings"

// match pairs template braces and link brackets in src[from:to], appending
// to s.templates and s.links. Comments and the bodies of opaque tags are
// skipped; ordinary HTML tags are not. When inRef is set, src[from:to] is
// the body of a <ref>: it is a barrier, so openings left unmatched at its
// end stay unmatched and nothing inside pairs with anything outside.
func (s *scanner) match(from, to int, inRef bool) {
	braceFloor, bracketFloor := len(s.braces), len(s.brackets)
	src := s.src
	for i := from; i < to; {
		j := strings.IndexAny(src[i:to], "{}[]<")
		if j < 0 {
			break
		}
		i += j
		switch src[i] {
		case '{':
			n := runLength(src, i, to, '{')
			if n >= 2 {
				s.templates = append(s.templates, span{start: i, end: -1})
				s.braces = append(s.braces, openBraces{
					template: len(s.templates) - 1,
					count:    n,
					brackets: len(s.brackets),
				})
			}
			i += n
		case '}':
			n := runLength(src, i, to, '}')
			s.closeBraces(i, n, braceFloor)
			i += n
		case '[':
			n := runLength(src, i, to, '[')
			if n >= 2 {
				s.links = append(s.links, span{start: i + n - 2, end: -1})
				s.brackets = append(s.brackets, len(s.links)-1)
			}
			i += n
		case ']':
			n := runLength(src, i, to, ']')
			s.closeBrackets(i, n, braceFloor, bracketFloor)
			i += n
		case '<':
			t := s.tagAt(i, to)
			switch {
			case t.kind == tagNone || t.kind == tagInline || t.kind == tagBreak:
				// Braces inside ordinary HTML tags still count, as in
				// MediaWiki's preprocessor.
				i++
			case t.kind == tagRef && t.hasBody && !inRef:
				s.match(t.body, t.bodyEnd, true)
				i = t.end
			default:
				i = t.end
			}
		}
	}
	if inRef {
		s.braces = s.braces[:braceFloor]
		s.brackets = s.brackets[:bracketFloor]
	}
}

// closeBraces matches a run of n closing braces at i against the stack,
// MediaWiki style: three braces close a parameter {{{ }}} when both sides
// have three, otherwise two close a template.
func (s *scanner) closeBraces(i, n, floor int) {
	used := 0
	for n-used >= 2 && len(s.braces) > floor {
		top := &s.braces[len(s.braces)-1]
		k := 2
		if top.count >= 3 && n-used >= 3 {
			k = 3
		}
		top.count -= k
		used += k
		if top.count < 2 {
			s.templates[top.template].end = i + used
			// Brackets opened inside the template cannot close outside it.
			s.brackets = s.brackets[:top.brackets]
			s.braces = s.braces[:len(s.braces)-1]
		}
	}
}

// closeBrackets matches a run of n closing brackets at i against the stack,
// two at a time. Brackets opened outside the innermost open template or
// outside the current <ref> body are out of reach.
func (s *scanner) closeBrackets(i, n, braceFloor, bracketFloor int) {
	floor := bracketFloor
	if len(s.braces) > braceFloor {
		floor = max(floor, s.braces[len(s.braces)-1].brackets)
	}
	for used := 0; n-used >= 2 && len(s.brackets) > floor; used += 2 {
		top := s.brackets[len(s.brackets)-1]
		s.brackets = s.brackets[:len(s.brackets)-1]
		s.links[top].end = i + used
	}
}
