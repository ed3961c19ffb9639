package corpus

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/neardup/neardup/io/dump"
)

const page = `<page>
    <title>T &amp; U</title>
    <ns>0</ns>
    <id>12</id>
    <revision>
      <id>345</id>
      <text xml:space="preserve" bytes="9">old &lt;b&gt; text</text>
    </revision>
  </page>
`

func TestReplaceText(t *testing.T) {
	text := "new <i>text</i> & more\n\nA \"quoted\" 'line'.\r\nEnd"
	raw, err := ReplaceText([]byte(page), text)
	if err != nil {
		t.Fatal(err)
	}
	r := dump.NewReader(bytes.NewReader(raw), "page.xml", dump.Options{})
	p, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != text || p.ID != 12 || p.RevID != 345 || p.Title != "T & U" {
		t.Errorf("read back page %d rev %d %q: %q, want 12 rev 345 \"T & U\": %q", p.ID, p.RevID, p.Title, p.Text, text)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the page: %v, want EOF", err)
	}
	if !bytes.HasPrefix(raw, []byte(page[:strings.Index(page, "old")])) || !bytes.HasSuffix(raw, []byte("</text>\n    </revision>\n  </page>\n")) {
		t.Errorf("the rest of the page changed:\n%s", raw)
	}
	for _, bad := range []string{"<page><id>1</id></page>", `<page><text bytes="0" /></page>`, "<page><text>cut"} {
		if _, err := ReplaceText([]byte(bad), "x"); !errors.Is(err, ErrNoText) {
			t.Errorf("ReplaceText(%q): %v, want ErrNoText", bad, err)
		}
	}
	// <textarea> is not <text>; the last revision's text is replaced.
	two := "<page><revision><text>one</text></revision><revision><text>two</text><textarea/></revision></page>"
	got, err := ReplaceText([]byte(two), "3")
	if want := "<page><revision><text>one</text></revision><revision><text>3</text><textarea/></revision></page>"; err != nil || string(got) != want {
		t.Errorf("ReplaceText(two revisions) = %q, %v, want %q", got, err, want)
	}
}
