package text

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/counters"
	"github.com/neardup/neardup/io/document"
)

func TestAppendParagraphs(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"empty", "", nil},
		{"blank lines only", " \n\t\n\r\n", nil},
		{"one line", "One sentence.", []string{"One sentence."}},
		{"a blank line ends a paragraph", "First one.\n\nSecond one.", []string{"First one.", "Second one."}},
		{"a blank line ends even wrapped prose", "a line that goes on\n\nand a new paragraph", []string{"a line that goes on", "and a new paragraph"}},
		{"hard-wrapped prose is joined", "The river rises in the hills\nand flows north to the sea.\nIt is short.",
			[]string{"The river rises in the hills and flows north to the sea.", "It is short."}},
		{"a line ending a sentence ends the paragraph", "It rained.\nthen it stopped.", []string{"It rained.", "then it stopped."}},
		{"so does a closer", "He said \"stop\"\nand left (at once)\nthen came back»\nlater ’\nnow",
			[]string{"He said \"stop\"", "and left (at once)", "then came back»", "later ’", "now"}},
		{"an ellipsis and other terminals", "Wait…\nthen what?\nこれは文です。\nそして", []string{"Wait…", "then what?", "これは文です。", "そして"}},
		{"a capital starts a paragraph", "Introduction\nThe first chapter", []string{"Introduction", "The first chapter"}},
		{"so do a digit and a symbol", "Items\n1 apple\n- pear\n• plum", []string{"Items", "1 apple", "- pear", "• plum"}},
		{"non-ASCII lower case joins", "a phrase about\nélan and\nøl", []string{"a phrase about élan and øl"}},
		{"a caseless script never joins", "一行目\n二行目", []string{"一行目", "二行目"}},
		{"a comma does not end a sentence", "red, green,\nblue", []string{"red, green, blue"}},
		{"a hyphen keeps its hyphen", "a hyphen- \nated word", []string{"a hyphen- ated word"}},
		{"white space collapsed", "  many\t\tspaces \u00a0 here  \n\n\n  and\u2003there ", []string{"many spaces here", "and there"}},
		{"CRLF and CR line ends", "one line\r\ntwo line\rThree\r\n\r\nFour", []string{"one line two line", "Three", "Four"}},
		{"no newline at the end", "last line\n", []string{"last line"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendParagraphs(nil, tt.doc)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AppendParagraphs(%q) =\n %q\nwant\n %q", tt.doc, got, tt.want)
			}
		})
	}
}

func TestAppendParagraphsAppends(t *testing.T) {
	got := AppendParagraphs([]string{"kept"}, "new")
	if !reflect.DeepEqual(got, []string{"kept", "new"}) {
		t.Errorf("got %q", got)
	}
}

func TestReadPlain(t *testing.T) {
	src := Source{File: "/corpus/a.txt", Plain: true, Corpus: PlainCorpus, Rank: 3}
	tests := []struct {
		name, data string
		want       document.Page
	}{
		{"text", "Some text.\n", document.Page{Text: "Some text.\n"}},
		{"byte order mark skipped", "\xef\xbb\xbfText", document.Page{Text: "Text"}},
		{"invalid UTF-8 replaced", "caf\xe9 au lait", document.Page{Text: "caf\uFFFD au lait"}},
		{"empty", "", document.Page{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ReadPlain(strings.NewReader(tt.data), src, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.File, want.Wiki, want.ID, want.Title, want.Name, want.Plain = src.File, PlainCorpus, 3, src.File, src.File, true
			if !reflect.DeepEqual(p, want) {
				t.Errorf("ReadPlain =\n %+v\nwant\n %+v", p, want)
			}
		})
	}
}

// TestDrainPlain reads plain-text files through Drain: a document, an empty
// one, one over the size limit and one cut by its compression.
func TestDrainPlain(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Repeat("A line of text that ends.\n", 400)
	tests := []struct {
		name   string
		data   []byte
		max    int
		pages  int
		dead   []document.DeadLetter // File filled in
		counts counters.Counts
	}{
		{"doc.txt", []byte(doc), 0, 1, nil,
			counters.Counts{FilesRead: 1, PagesRead: 1, PagesKept: 1}},
		{"blank.txt", []byte(" \n\n"), 0, 0, nil,
			counters.Counts{FilesRead: 1, PagesRead: 1, PagesEmpty: 1}},
		{"big.txt", []byte(doc), 1000, 0, []document.DeadLetter{{Reason: "file longer than 1000 bytes (--max_page_bytes)"}},
			counters.Counts{FilesRead: 1, PagesRead: 1, PagesFailed: 1, DeadLetters: 1}},
		{"cut.txt.gz", gzipped(t, []byte(doc))[:60], 0, 0, []document.DeadLetter{
			{Reason: "truncated: document cut: decompressing: unexpected EOF"}, {Reason: "truncated: decompressing: unexpected EOF"}},
			counters.Counts{FilesRead: 1, FilesTruncated: 1, PagesRead: 1, PagesFailed: 1, DeadLetters: 2}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, dir, tt.name, tt.data)
			d := drainFile(t, Source{File: file, Plain: true, Corpus: PlainCorpus, Rank: int64(i + 1)}, tt.max)
			for j := range tt.dead {
				tt.dead[j].File = file
			}
			if len(d.pages) != tt.pages || !reflect.DeepEqual(d.dead, tt.dead) || !reflect.DeepEqual(d.counts, tt.counts) {
				t.Errorf("%d pages, dead letters %+v, counts %+v\nwant %d, %+v, %+v", len(d.pages), d.dead, d.counts, tt.pages, tt.dead, tt.counts)
			}
			if tt.pages == 1 && (d.pages[0].Text != doc || d.pages[0].ID != int64(i+1) || d.pages[0].Wiki != PlainCorpus) {
				t.Errorf("page %+v", d.pages[0])
			}
		})
	}
}

func TestReadPlainCut(t *testing.T) {
	_, err := ReadPlain(failing{}, Source{File: "x.txt.gz"}, 0)
	var cut *TruncatedError
	if !errors.As(err, &cut) || cut.Cut || cut.File != "x.txt.gz" {
		t.Errorf("ReadPlain error %v, want a truncation with nothing cut", err)
	}
}
