package dump

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/io/document"
)

// maxWikiName bounds a wiki name (dbnames are short: "zh_min_nanwiki").
const maxWikiName = 64

// ReadSite reads the header of a dump file (opened with Open, so
// compressed files are decompressed) and returns its Site. Only an I/O
// error is an error: a header that is missing or malformed gives a Site
// whose Problems say so.
func ReadSite(ctx context.Context, file string) (document.Site, error) {
	rc, err := Open(ctx, file)
	if err != nil {
		return document.Site{}, err
	}
	defer rc.Close()
	r := NewReader(rc, file, Options{MaxPageBytes: maxSiteinfoBytes})
	lang, siteinfo, err := r.Header()
	if err != nil {
		return document.Site{}, fmt.Errorf("dump: reading the header of %s: %w", file, err)
	}
	return ParseSite(file, lang, siteinfo), nil
}

// maxSiteinfoBytes bounds the <siteinfo> element ReadSite captures; real
// ones are a few KB.
const maxSiteinfoBytes = 1 << 20

// ParseSite builds the Site of file from the xml:lang of its root element
// and its raw <siteinfo> element (nil if it has none).
func ParseSite(file, rootLang string, siteinfo []byte) document.Site {
	s := parseSite(file, rootLang, siteinfo)
	for i, p := range s.Problems {
		s.Problems[i] = path.Base(file) + ": " + p // a wiki's files are merged: say which one
	}
	if s.Lang == "" {
		s.Lang = langFromWiki(s.Wiki)
	}
	if named, ok := dumpFileWiki(file); ok && named != s.Wiki {
		s.AddProblem(fmt.Sprintf("%s is named like a dump of %s but its <dbname> is %s", path.Base(file), named, s.Wiki))
	}
	return s
}

func parseSite(file, rootLang string, siteinfo []byte) document.Site {
	s := document.Site{Wiki: wikiFromFile(file), Lang: cleanLang(rootLang)}
	if siteinfo == nil {
		s.Problems = append(s.Problems, "no <siteinfo>: canonical namespace names used")
		return s
	}
	var info struct {
		DBName     string `xml:"dbname"`
		Base       string `xml:"base"`
		Namespaces []struct {
			Key  string `xml:"key,attr"`
			Name string `xml:",chardata"`
		} `xml:"namespaces>namespace"`
	}
	siteinfo = bytes.ToValidUTF8(siteinfo, []byte(string(utf8.RuneError)))
	if err := xml.Unmarshal(siteinfo, &info); err != nil {
		s.Problems = append(s.Problems, "malformed <siteinfo> ("+err.Error()+"): canonical namespace names used")
		return s
	}
	s.DBName = strings.TrimSpace(info.DBName)
	if name := s.DBName; validWikiName(name) {
		s.Wiki = name
	} else if name != "" {
		s.Problems = append(s.Problems, fmt.Sprintf("unusable <dbname> %q: the wiki is named after the file", name))
	}
	s.Base = strings.TrimSpace(info.Base)
	if s.Lang == "" {
		s.Lang = langFromBase(s.Base)
	}
	for _, ns := range info.Namespaces {
		key, err := strconv.Atoi(strings.TrimSpace(ns.Key))
		if err != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("namespace with a malformed key %q ignored", ns.Key))
			continue
		}
		s.Namespaces = append(s.Namespaces, document.Namespace{Key: key, Name: strings.TrimSpace(ns.Name)})
	}
	if len(info.Namespaces) == 0 {
		s.Problems = append(s.Problems, "no <namespaces> in <siteinfo>: canonical namespace names used")
	}
	sort.SliceStable(s.Namespaces, func(i, j int) bool { return s.Namespaces[i].Key < s.Namespaces[j].Key })
	return s
}

// wikiFromFile names the wiki of a dump without <dbname> after its file:
// the base name up to its first '-' or '.'.
func wikiFromFile(file string) string {
	name := path.Base(strings.ReplaceAll(file, "\\", "/"))
	if i := strings.IndexAny(name, "-."); i > 0 {
		name = name[:i]
	}
	if !validWikiName(name) {
		return "wiki"
	}
	return name
}

// validWikiName reports whether name can name a wiki in sentence ids: short,
// and free of the ':' that separates an id's parts and of white space.
func validWikiName(name string) bool {
	if name == "" || len(name) > maxWikiName || !utf8.ValidString(name) {
		return false
	}
	return !strings.ContainsAny(name, ": \t\r\n")
}

// dumpName matches the names Wikimedia gives its dump files:
// DBNAME-YYYYMMDD-… or DBNAME-latest-….
var dumpName = regexp.MustCompile(`^([a-z_]+wiki)-(?:[0-9]{8}|latest)-`)

// dumpFileWiki returns the wiki a file is named after, if it is named like
// a Wikimedia dump.
func dumpFileWiki(file string) (string, bool) {
	m := dumpName.FindStringSubmatch(path.Base(strings.ReplaceAll(file, "\\", "/")))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// isWikipediaName reports whether name is shaped like the database name of
// a language edition of Wikipedia ("dewiki", "zh_min_nanwiki").
func isWikipediaName(name string) bool {
	prefix, ok := strings.CutSuffix(name, "wiki")
	if !ok || prefix == "" {
		return false
	}
	for _, c := range prefix {
		if !('a' <= c && c <= 'z' || c == '_') {
			return false
		}
	}
	return true
}

// multilingual are the wikis named like a language edition whose prefix
// is not a language.
var multilingual = map[string]bool{"commonswiki": true, "wikidatawiki": true, "metawiki": true,
	"specieswiki": true, "mediawikiwiki": true, "incubatorwiki": true, "sourceswiki": true, "outreachwiki": true}

// langFromWiki returns the language of a Wikipedia named by its database
// name ("dewiki" → "de", "zh_min_nanwiki" → "zh-min-nan"), or "".
func langFromWiki(name string) string {
	if !isWikipediaName(name) || multilingual[name] {
		return ""
	}
	return cleanLang(strings.ReplaceAll(strings.TrimSuffix(name, "wiki"), "_", "-"))
}

// cleanLang returns a language tag as a lower-case code, or "" if it does
// not look like one.
func cleanLang(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if tag == "" || len(tag) > 20 {
		return ""
	}
	for _, c := range tag {
		if !('a' <= c && c <= 'z' || c == '-') {
			return ""
		}
	}
	return tag
}

// langFromBase returns the language subdomain of a Wikimedia base URL
// (https://hy.wikipedia.org/wiki/… → "hy"), or "".
func langFromBase(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	host := strings.Split(u.Hostname(), ".")
	if len(host) < 3 {
		return ""
	}
	switch host[len(host)-2] {
	case "wikipedia", "wiktionary", "wikibooks", "wikinews", "wikiquote", "wikisource", "wikiversity", "wikivoyage":
		return cleanLang(host[0])
	}
	return ""
}

// attribute returns the value of the attribute name in a start tag's bytes,
// or "".
func attribute(tag []byte, name string) string {
	for i := 0; ; {
		j := bytes.Index(tag[i:], []byte(name))
		if j < 0 {
			return ""
		}
		i += j
		before := i > 0 && (tag[i-1] == ' ' || tag[i-1] == '\t' || tag[i-1] == '\n' || tag[i-1] == '\r')
		rest := bytes.TrimLeft(tag[i+len(name):], " \t\r\n")
		i += len(name)
		if !before || len(rest) < 2 || rest[0] != '=' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
			continue
		}
		if end := bytes.IndexByte(rest[1:], rest[0]); end >= 0 {
			return string(rest[1 : 1+end])
		}
		return ""
	}
}
