package dump

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

// drainString drains a Reader of s through Filter{} and returns what it
// emitted and counted.
func drainString(t *testing.T, s string, opt Options) ([]document.Page, []document.DeadLetter, counters.Counts) {
	t.Helper()
	var pages []document.Page
	var dead []document.DeadLetter
	var c counters.Counts
	r := NewReader(strings.NewReader(s), "f.xml", opt)
	all := func(int64) bool { return true }
	if err := Drain(r, "f.xml", Filter{}, all, &c, func(p document.Page) { pages = append(pages, p) },
		func(d document.DeadLetter) { dead = append(dead, d) }); err != nil {
		t.Fatal(err)
	}
	return pages, dead, c
}

// checkDrainAccounting asserts the equations of docs/outputs.md on counts of the
// read stage.
func checkDrainAccounting(t *testing.T, c counters.Counts, dead []document.DeadLetter) {
	t.Helper()
	if c.PagesRead != c.PagesKept+c.PagesSkippedNamespace+c.Redirects+c.PagesFailed {
		t.Errorf("pages read %d != kept %d + namespace %d + redirects %d + failed %d",
			c.PagesRead, c.PagesKept, c.PagesSkippedNamespace, c.Redirects, c.PagesFailed)
	}
	if int64(len(dead)) != c.DeadLetters || c.DeadLetters != c.PagesFailed+c.FilesTruncated+c.FilesNotDumps {
		t.Errorf("%d dead letters, counts say %d = failed %d + truncated %d + not dumps %d",
			len(dead), c.DeadLetters, c.PagesFailed, c.FilesTruncated, c.FilesNotDumps)
	}
}

// TestOversizedPageGivesItsSize: the dead letter of a page over the limit
// gives the page's size, counted without buffering it, and its id and title.
func TestOversizedPageGivesItsSize(t *testing.T) {
	big := page(3, "Big", strings.Repeat("x", 5000))
	_, dead, c := drainString(t, mwOpen+page(1, "One", "a")+big+mwClose, Options{MaxPageBytes: 300})
	checkDrainAccounting(t, c, dead)
	want := "page of " + strconv.Itoa(len(strings.TrimSpace(big))) + " bytes, larger than 300 bytes"
	if len(dead) != 1 || dead[0].Reason != want || dead[0].PageID != 3 || dead[0].Title != "Big" {
		t.Fatalf("dead letters %+v, want one for page 3 Big: %q", dead, want)
	}
}

// TestCutPageIsCounted: a page cut by the end of the input is a page read
// and failed, with its id and title, besides the file's truncation.
func TestCutPageIsCounted(t *testing.T) {
	cut := page(2, "Cut &amp; dried", "some text that the truncation cuts")
	pages, dead, c := drainString(t, mwOpen+page(1, "One", "a")+cut[:len(cut)-30], Options{})
	checkDrainAccounting(t, c, dead)
	if len(pages) != 1 || c.PagesRead != 2 || c.PagesFailed != 1 || c.FilesTruncated != 1 || c.DeadLetters != 2 {
		t.Fatalf("pages %d, counts %+v: want 1 page kept, 2 read, 1 failed, 1 truncation, 2 dead letters", len(pages), c)
	}
	off := int64(len(mwOpen + page(1, "One", "a") + "  "))
	want := []document.DeadLetter{
		{File: "f.xml", Offset: off, PageID: 2, Title: "Cut & dried", Reason: "truncated: page cut: unexpected EOF"},
		{File: "f.xml", Offset: off, Reason: "truncated: unexpected EOF"},
	}
	if !reflect.DeepEqual(dead, want) {
		t.Errorf("dead letters\n%+v, want\n%+v", dead, want)
	}
	// The end of the root alone missing cuts no page.
	_, dead, c = drainString(t, mwOpen+page(1, "One", "a"), Options{})
	checkDrainAccounting(t, c, dead)
	if c.PagesFailed != 0 || c.FilesTruncated != 1 || len(dead) != 1 {
		t.Errorf("root not closed: counts %+v, dead %+v", c, dead)
	}
}

// TestRevisionIDBounds: sentence ids hold revision ids (or page ids of pages
// without one) in 0…document.MaxKey; a page with another is a dead letter.
func TestRevisionIDBounds(t *testing.T) {
	if document.MaxKey != 8589934591 {
		t.Fatalf("document.MaxKey = %d", document.MaxKey)
	}
	withRev := func(id int, title, rev string) string {
		return "<page><title>" + title + "</title><ns>0</ns><id>" + strconv.Itoa(id) + "</id><revision><id>" + rev +
			"</id><text>t</text></revision></page>\n"
	}
	noRev := func(id, title string) string {
		return "<page><title>" + title + "</title><ns>0</ns><id>" + id + "</id><revision><text>t</text></revision></page>\n"
	}
	in := mwOpen + withRev(1, "Max", "8589934591") + withRev(2, "Over", "8589934592") + withRev(3, "Negative", "-5") +
		noRev("8589934591", "PageMax") + noRev("8589934592", "PageOver") + noRev("-1", "PageNegative") + mwClose
	pages, dead, c := drainString(t, in, Options{})
	checkDrainAccounting(t, c, dead)
	if got := titles(pages); !reflect.DeepEqual(got, []string{"Max", "PageMax"}) {
		t.Errorf("kept %q, want Max and PageMax", got)
	}
	var reasons []string
	for _, d := range dead {
		reasons = append(reasons, d.Title+": "+d.Reason)
	}
	want := []string{
		"Over: revision id 8589934592 outside 0…8589934591",
		"Negative: revision id -5 outside 0…8589934591",
		"PageOver: page id 8589934592 (no revision id) outside 0…8589934591",
		"PageNegative: page id -1 (no revision id) outside 0…8589934591",
	}
	if !reflect.DeepEqual(reasons, want) || c.PagesFailed != 4 {
		t.Errorf("dead letters %q (%d failed), want %q", reasons, c.PagesFailed, want)
	}
}
