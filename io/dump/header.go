package dump

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
)

// parseNamespaces returns the namespace names declared in a captured
// <siteinfo> element, mapped to their keys, or nil if it is malformed or
// declares none. They are read as ParseSite reads them, so that a reader
// given Site.Namespaces (Options.Namespaces) and one reading the same
// <siteinfo> derive the same namespaces.
func parseNamespaces(siteinfo []byte) map[string]int {
	return NamespaceKeys(parseSite("", "", siteinfo).Namespaces)
}

// NamespaceKeys maps the names of namespaces to their keys, for
// Options.Namespaces; nil if none has a name.
func NamespaceKeys(namespaces []document.Namespace) map[string]int {
	var names map[string]int
	for _, ns := range namespaces {
		if ns.Name == "" {
			continue
		}
		if names == nil {
			names = make(map[string]int, len(namespaces))
		}
		names[ns.Name] = ns.Key
	}
	return names
}

// namespaceOf derives the namespace of a page without <ns> from the prefix
// of its title: the key of the namespace named like the part before the
// first ':' (exactly, or else ignoring case), or 0.
func namespaceOf(title string, namespaces map[string]int) int {
	prefix, _, ok := strings.Cut(title, ":")
	if !ok || prefix == "" {
		return 0
	}
	if key, ok := namespaces[prefix]; ok {
		return key
	}
	for name, key := range namespaces {
		if strings.EqualFold(name, prefix) {
			return key
		}
	}
	return 0
}

// salvage recovers what it can of the id and title of a bad page from its
// raw bytes: the first <title> element and the first <id> element before
// any <revision>. It returns zero values for what it cannot find.
func salvage(page []byte) (id int64, title string) {
	head := page
	if i := bytes.Index(page, []byte("<revision")); i >= 0 {
		head = page[:i]
	}
	if raw, ok := elementText(head, "title"); ok {
		title = decodeSalvaged(raw)
	}
	if raw, ok := elementText(head, "id"); ok {
		if n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64); err == nil && n > 0 {
			id = n
		}
	}
	return id, title
}

// elementText returns the raw content of the first <name>...</name> in b
// if it holds no markup.
func elementText(b []byte, name string) ([]byte, bool) {
	open, end := "<"+name+">", "</"+name+">"
	i := bytes.Index(b, []byte(open))
	if i < 0 {
		return nil, false
	}
	rest := b[i+len(open):]
	j := bytes.Index(rest, []byte(end))
	if j < 0 || bytes.IndexByte(rest[:j], '<') >= 0 {
		return nil, false
	}
	return rest[:j], true
}

// decodeSalvaged decodes the references of a salvaged title where it can and
// makes it valid UTF-8; a malformed reference is kept as it is.
func decodeSalvaged(raw []byte) string {
	raw = bytes.ToValidUTF8(raw, []byte(string(utf8.RuneError)))
	var out []byte
	for {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return string(append(out, raw...))
		}
		out = append(out, raw[:i]...)
		if r, n := charRef(raw[i:]); n > 0 {
			out = utf8.AppendRune(out, r)
			raw = raw[i+n:]
		} else {
			out = append(out, '&')
			raw = raw[i+1:]
		}
	}
}
