package document

import (
	"fmt"
	"slices"
	"sort"
)

// Site is what a dump says of the wiki it comes from: its <siteinfo>
// header and the xml:lang of its <mediawiki> element, as io/dump parses
// them; a text corpus or a web crawl has one too, with its name. The
// cleaner needs the local names of the file and category namespaces, the
// sentence splitter the language, and sentence ids the wiki's name, so
// that two wikis, or two dumps of one wiki, can be read in one run.
type Site struct {
	// Wiki names the wiki: <dbname> ("enwiki", "hywiki"), or for a dump
	// without one the file's base name up to its first '-' or '.'
	// ("Katrina.xml" → "Katrina").
	Wiki string `json:"wiki"`
	// DBName is the <dbname> of the header, as it is written, even if
	// unusable as Wiki; "" for a dump without one.
	DBName string `json:"dbname,omitempty"`
	// Lang is the wiki's content language: the xml:lang of <mediawiki>, or
	// else the language subdomain of <base>, or "" when neither says.
	Lang string `json:"lang"`
	// Base is the URL of the wiki's main page, from <base>.
	Base string `json:"base,omitempty"`
	// Namespaces are the namespaces <siteinfo> declares, by key.
	Namespaces []Namespace `json:"namespaces,omitempty"`
	// Problems says what was missing or malformed in the header; the
	// cleaner then falls back to the canonical namespace names.
	Problems []string `json:"problems,omitempty"`
}

// Namespace is one <namespace> of a <siteinfo>.
type Namespace struct {
	Key  int    `json:"key"`
	Name string `json:"name"` // the local name; "" for the main namespace
}

// Names returns the names of the site's namespaces by key.
func (s Site) Names() map[int][]string {
	out := map[int][]string{}
	for _, ns := range s.Namespaces {
		if ns.Name != "" {
			out[ns.Key] = append(out[ns.Key], ns.Name)
		}
	}
	return out
}

// MergeSites returns one Site per wiki, sorted by name: the sites of the
// files of one wiki (the parts of a split dump, or dumps of several dates)
// have their namespace names joined, and a second language or base is
// reported as a problem (the first, in file order, is kept).
func MergeSites(sites []Site) []Site {
	byWiki := map[string]*Site{}
	var names []string
	for _, s := range sites {
		m, ok := byWiki[s.Wiki]
		if !ok {
			c := s
			c.Namespaces = slices.Clone(s.Namespaces)
			c.Problems = slices.Clone(s.Problems)
			byWiki[s.Wiki] = &c
			names = append(names, s.Wiki)
			continue
		}
		m.merge(s)
	}
	sort.Strings(names)
	out := make([]Site, 0, len(names))
	for _, n := range names {
		out = append(out, *byWiki[n])
	}
	return out
}

// merge joins another file's site of the same wiki into s.
func (s *Site) merge(o Site) {
	if s.Lang == "" {
		s.Lang = o.Lang
	} else if o.Lang != "" && o.Lang != s.Lang {
		s.AddProblem(fmt.Sprintf("files of wiki %s disagree on its language (%s, %s): %s used", s.Wiki, s.Lang, o.Lang, s.Lang))
	}
	if s.Base == "" {
		s.Base = o.Base
	}
	for _, ns := range o.Namespaces {
		if !slices.Contains(s.Namespaces, ns) {
			s.Namespaces = append(s.Namespaces, ns)
		}
	}
	sort.SliceStable(s.Namespaces, func(i, j int) bool { return s.Namespaces[i].Key < s.Namespaces[j].Key })
	for _, p := range o.Problems {
		s.AddProblem(p)
	}
}

// AddProblem adds the problem p to s.Problems once.
func (s *Site) AddProblem(p string) {
	if !slices.Contains(s.Problems, p) {
		s.Problems = append(s.Problems, p)
	}
}
