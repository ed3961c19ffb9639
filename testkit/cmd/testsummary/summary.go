package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// config says how names and paths are shown.
type config struct {
	Root    string // module root directory: paths in skip messages are shown relative to it
	Module  string // module path: trimmed from package names, and locates a package's directory
	MaxList int    // most tests listed per skip reason; 0 lists all
}

// event is one line of `go test -json` (cmd/test2json, and the go command's
// build-output and build-fail events).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

// output is one output event, numbered so that the lines of several tests
// can be put back in stream order.
type output struct {
	seq  int
	text string
}

// pkgState is what is known of one package while its events come in
// (packages run in parallel, so their events interleave).
type pkgState struct {
	path                    string
	out                     map[string][]output // by test; "" holds the package's own output
	status                  map[string]string   // by test: run, pass, fail or skip
	order                   []string            // tests in the order they started
	passed, failed, skipped int
	done                    bool
}

type skip struct {
	test    string // package.Test
	message string // the skip message, its paths normalised
}

type summariser struct {
	w       io.Writer
	cfg     config
	pkgs    map[string]*pkgState
	started []string // package paths in the order they started
	seq     int

	results                 int // pass, fail and skip events of tests
	passed, failed, skipped int
	pkgOK, pkgNoTests       int
	failedTests             []string
	failedPkgs              []string // "name (why)"
	skips                   []skip
	buildFails              []string        // ImportPaths of build-fail events
	failedBuilds            map[string]bool // FailedBuild of failed packages
}

func newSummariser(w io.Writer, cfg config) *summariser {
	cfg.Root = strings.TrimSuffix(filepath.ToSlash(cfg.Root), "/")
	return &summariser{w: w, cfg: cfg, pkgs: map[string]*pkgState{}, failedBuilds: map[string]bool{}}
}

// feed takes one line of input. A line that is not an event is copied to the
// output as it is.
func (s *summariser) feed(line []byte) {
	line = bytes.TrimRight(line, "\r\n")
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var e event
	if line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
		fmt.Fprintf(s.w, "%s\n", line)
		return
	}
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output) // as go test prints it, as soon as it comes
		return
	case "build-fail":
		s.buildFails = append(s.buildFails, e.ImportPath)
		return
	}
	if e.Package == "" {
		return
	}
	p := s.pkgs[e.Package]
	if p == nil {
		p = &pkgState{path: e.Package, out: map[string][]output{}, status: map[string]string{}}
		s.pkgs[e.Package] = p
		s.started = append(s.started, e.Package)
	}
	switch e.Action {
	case "output":
		p.out[e.Test] = append(p.out[e.Test], output{s.seq, e.Output})
		s.seq++
	case "run":
		if _, ok := p.status[e.Test]; !ok {
			p.order = append(p.order, e.Test)
		}
		p.status[e.Test] = "run"
	case "pass", "fail", "skip":
		if e.Test != "" {
			s.endTest(p, e)
		} else if !p.done {
			s.endPackage(p, e)
		}
	}
}

func (s *summariser) endTest(p *pkgState, e event) {
	if _, ok := p.status[e.Test]; !ok {
		p.order = append(p.order, e.Test)
	}
	p.status[e.Test] = e.Action
	name := s.short(p.path) + "." + e.Test
	s.results++
	switch e.Action {
	case "pass":
		s.passed++
		p.passed++
		delete(p.out, e.Test)
	case "skip":
		s.skipped++
		p.skipped++
		s.skips = append(s.skips, skip{name, s.normalise(skipMessage(p.out[e.Test]), p.path)})
		delete(p.out, e.Test)
	case "fail":
		s.failed++
		p.failed++
		s.failedTests = append(s.failedTests, name)
	}
}

func (s *summariser) endPackage(p *pkgState, e event) {
	p.done = true
	name := s.short(p.path)
	elapsed := fmt.Sprintf("%7.2fs", e.Elapsed)
	switch e.Action {
	case "pass":
		s.pkgOK++
		s.progress("ok", name, elapsed, p.counts())
	case "skip":
		s.pkgNoTests++
		s.progress("skip", name, "", "[no test files]")
	case "fail":
		s.printFailure(p)
		var why string
		switch unfinished := p.unfinished(); {
		case e.FailedBuild != "":
			s.failedBuilds[e.FailedBuild] = true
			why, elapsed = "build failed", ""
		case p.failed > 0:
			why = fmt.Sprintf("%d failed", p.failed)
		case len(unfinished) > 0:
			why = "did not finish " + strings.Join(unfinished, ", ")
		default:
			why = "failed outside any test"
		}
		s.failedPkgs = append(s.failedPkgs, name+" ("+why+")")
		detail := p.counts()
		if p.failed == 0 {
			detail = strings.TrimPrefix(detail+"; "+why, "; ")
		}
		s.progress("FAIL", name, elapsed, detail)
	}
	p.out = nil
}

// counts is the package's "3 passed, 1 failed, 2 skipped" (parts that are 0
// left out).
func (p *pkgState) counts() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{p.passed, "passed"}, {p.failed, "failed"}, {p.skipped, "skipped"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(parts, ", ")
}

// unfinished lists the tests that started and never ended (a timeout, a
// panic outside the test's goroutine, an os.Exit).
func (p *pkgState) unfinished() []string {
	var names []string
	for _, t := range p.order {
		if t != "" && p.status[t] == "run" {
			names = append(names, t)
		}
	}
	return names
}

func (s *summariser) progress(status, name, elapsed, detail string) {
	fmt.Fprintln(s.w, strings.TrimRight(fmt.Sprintf("%-4s  %-28s %8s  %s", status, name, elapsed, detail), " "))
}

// printFailure prints a failed package's output as plain `go test` would:
// its own output and that of its failed and unfinished tests, in the order
// it came, without the === RUN lines and go test's closing FAIL lines (the
// progress line replaces them).
func (s *summariser) printFailure(p *pkgState) {
	var lines []output
	for test, out := range p.out {
		if test == "" {
			for _, o := range out {
				if o.text == "PASS\n" || o.text == "FAIL\n" || strings.HasPrefix(o.text, "FAIL\t"+p.path) || strings.HasPrefix(o.text, "ok  \t"+p.path) {
					continue
				}
				lines = append(lines, o)
			}
			continue
		}
		for _, o := range out {
			if !isFraming(o.text) {
				lines = append(lines, o)
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].seq < lines[j].seq })
	for _, o := range lines {
		fmt.Fprint(s.w, o.text)
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1].text, "\n") {
		fmt.Fprintln(s.w)
	}
}

// isFraming reports the lines test2json's verbose mode adds around a test's
// own output.
func isFraming(text string) bool {
	for _, prefix := range []string{"=== RUN ", "=== PAUSE ", "=== CONT ", "=== NAME "} {
		if strings.HasPrefix(text, prefix) {
			return true
		}
	}
	return false
}

// logPrefix is the "    file_test.go:12: " that t.Log, t.Skip and friends put
// before a message.
var logPrefix = regexp.MustCompile(`^ +[^ :]+\.go:\d+: `)

// skipMessage is a skipped test's message: the last thing it logged (t.Skip
// logs its arguments), continuation lines joined by spaces.
func skipMessage(out []output) string {
	var text strings.Builder
	for _, o := range out {
		text.WriteString(o.text)
	}
	var msg []string
	for _, l := range strings.Split(text.String(), "\n") {
		if m := logPrefix.FindString(l); m != "" {
			msg = []string{strings.TrimSpace(l[len(m):])}
		} else if msg != nil && strings.HasPrefix(l, "        ") && !strings.HasPrefix(strings.TrimSpace(l), "--- ") {
			msg = append(msg, strings.TrimSpace(l))
		}
	}
	if len(msg) == 0 || msg[0] == "" && len(msg) == 1 {
		return "(no message)"
	}
	return strings.Join(msg, " ")
}

// pathToken finds paths in a message: words that start with /, ./ or ../.
var pathToken = regexp.MustCompile(`(?:^|[\s"'(=\[])((?:\.\.?/|/)[^\s"'(),:;\]]*)`)

// normalise rewrites the paths in a skip message so that skips for the same
// missing data read alike: a path relative to the package's directory (the
// test's working directory) or absolute becomes relative to the module root
// when it is in the root or beside it, and keeps only its first three
// elements ("stat /work/main/../shared/data/enwiki/x.bz2" and
// "../../../shared/data/wikiduper/Katrina.xml" in transforms/verify both give
// "../shared/data/…").
func (s *summariser) normalise(msg, pkg string) string {
	dir, inModule := s.pkgDir(pkg)
	var b strings.Builder
	last := 0
	for _, m := range pathToken.FindAllStringSubmatchIndex(msg, -1) {
		b.WriteString(msg[last:m[2]])
		b.WriteString(s.shortPath(msg[m[2]:m[3]], dir, inModule))
		last = m[3]
	}
	b.WriteString(msg[last:])
	return b.String()
}

func (s *summariser) shortPath(p, dir string, inModule bool) string {
	root := s.cfg.Root
	switch {
	case strings.HasPrefix(p, "/"):
		p = path.Clean(p)
	case inModule && root != "":
		p = path.Join(root, dir, p)
	default: // relative to a directory we do not know: keep one ../
		p = path.Clean(p)
		if strings.HasPrefix(p, "../") {
			p = "../" + strings.TrimLeft(strings.ReplaceAll(p, "../", ""), "/")
		}
	}
	if root != "" && root != "/" && strings.HasPrefix(p, "/") {
		if p == root {
			p = "."
		} else if rest, ok := strings.CutPrefix(p, root+"/"); ok {
			p = rest
		} else if parent := path.Dir(root); parent != "/" {
			if rest, ok := strings.CutPrefix(p, parent+"/"); ok {
				p = "../" + rest
			}
		} else {
			p = "../" + strings.TrimPrefix(p, "/")
		}
	}
	lead := ""
	if strings.HasPrefix(p, "/") {
		lead, p = "/", p[1:]
	}
	if elems := strings.Split(p, "/"); len(elems) > 3 {
		p = strings.Join(elems[:3], "/") + "/…"
	}
	return lead + p
}

// pkgDir is the package's directory relative to the module root.
func (s *summariser) pkgDir(pkg string) (string, bool) {
	switch {
	case s.cfg.Module == "":
		return "", false
	case pkg == s.cfg.Module:
		return "", true
	}
	dir, ok := strings.CutPrefix(pkg, s.cfg.Module+"/")
	return dir, ok
}

// short is a package's name without the module path.
func (s *summariser) short(pkg string) string {
	if dir, ok := s.pkgDir(pkg); ok && dir != "" {
		return dir
	}
	return pkg
}

// missingWords mark a message that says a file or directory is not there.
var missingWords = regexp.MustCompile(`(?i)not found|not available|no such file|does not exist|not exist|missing`)

// reason groups skips: all those that say a path is missing group under the
// path (its first three elements), whatever their wording; others under
// their message.
func reason(msg string) (title string, byPath bool) {
	if m := pathToken.FindStringSubmatch(msg); m != nil && missingWords.MatchString(msg) {
		return "needs " + strings.TrimSuffix(m[1], "/…") + ", which is missing", true
	}
	return msg, false
}

// finish reports packages whose output ended before their result, prints the
// summary and returns the exit status.
func (s *summariser) finish() int {
	for _, pkg := range s.started {
		p := s.pkgs[pkg]
		if p.done {
			continue
		}
		s.printFailure(p)
		why := "no result: the output ends before the package finished"
		if u := p.unfinished(); len(u) > 0 {
			why += ", in " + strings.Join(u, ", ")
		}
		name := s.short(p.path)
		s.failedPkgs = append(s.failedPkgs, name+" ("+why+")")
		s.progress("FAIL", name, "", why)
	}
	for _, ip := range s.buildFails {
		if !s.failedBuilds[ip] {
			s.failedPkgs = append(s.failedPkgs, ip+" (build failed)")
		}
	}

	w := s.w
	if s.skipped > 0 {
		fmt.Fprintf(w, "\n%d skipped, by reason:\n", s.skipped)
		s.printSkips()
	}
	if len(s.failedTests) > 0 {
		fmt.Fprintf(w, "\nfailed tests:\n")
		for _, t := range s.failedTests {
			fmt.Fprintf(w, "  %s\n", t)
		}
	}
	if len(s.failedPkgs) > 0 {
		fmt.Fprintf(w, "\nfailed packages:\n")
		for _, p := range s.failedPkgs {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	fmt.Fprintf(w, "\ntests: %d passed, %d failed, %d skipped (subtests counted); packages: %d ok, %d failed, %d without tests\n",
		s.passed, s.failed, s.skipped, s.pkgOK, len(s.failedPkgs), s.pkgNoTests)
	switch {
	case s.failed > 0 || len(s.failedPkgs) > 0:
		fmt.Fprintln(w, "FAIL")
		return 1
	case s.results == 0:
		fmt.Fprintln(w, "FAIL: no test results in the input (did go test -json run?)")
		return 1
	}
	fmt.Fprintln(w, "PASS")
	return 0
}

func (s *summariser) printSkips() {
	type group struct {
		title    string
		byPath   bool
		messages map[string]int
		tests    []string
	}
	groups := map[string]*group{}
	for _, sk := range s.skips {
		title, byPath := reason(sk.message)
		g := groups[title]
		if g == nil {
			g = &group{title: title, byPath: byPath, messages: map[string]int{}}
			groups[title] = g
		}
		g.messages[sk.message]++
		g.tests = append(g.tests, sk.test)
	}
	var sorted []*group
	for _, g := range groups {
		sorted = append(sorted, g)
	}
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if len(a.tests) != len(b.tests) {
			return len(a.tests) > len(b.tests)
		}
		return a.title < b.title
	})
	for _, g := range sorted {
		fmt.Fprintf(s.w, "\n%5d × %s\n", len(g.tests), g.title)
		if g.byPath {
			type variant struct {
				msg string
				n   int
			}
			var vs []variant
			for m, n := range g.messages {
				vs = append(vs, variant{m, n})
			}
			sort.Slice(vs, func(i, j int) bool {
				if vs[i].n != vs[j].n {
					return vs[i].n > vs[j].n
				}
				return vs[i].msg < vs[j].msg
			})
			for _, v := range vs {
				fmt.Fprintf(s.w, "        %d × %q\n", v.n, v.msg)
			}
		}
		sort.Strings(g.tests)
		tests := g.tests
		more := 0
		if s.cfg.MaxList > 0 && len(tests) > s.cfg.MaxList {
			tests, more = tests[:s.cfg.MaxList], len(tests)-s.cfg.MaxList
		}
		for _, t := range tests {
			fmt.Fprintf(s.w, "        %s\n", t)
		}
		if more > 0 {
			fmt.Fprintf(s.w, "        … and %d more (-list 0 lists all)\n", more)
		}
	}
}
