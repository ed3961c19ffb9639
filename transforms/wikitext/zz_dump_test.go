package wikitext

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZDump(t *testing.T) {
	in := os.Getenv("WT_IN")
	if in == "" {
		t.Skip()
	}
	f, _ := os.Open(in)
	defer f.Close()
	want := os.Getenv("WT_TITLE")
	d := xml.NewDecoder(f)
	var title string
	for {
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "title":
				var s string
				d.DecodeElement(&s, &se)
				title = s
			case "text":
				var s string
				d.DecodeElement(&s, &se)
				if want != "" && !strings.Contains(title, want) {
					continue
				}
				fmt.Printf("=== PAGE %s\n", title)
				if os.Getenv("WT_RAW") != "" {
					fmt.Println(s)
				}
				for _, p := range Clean(s) {
					fmt.Printf("[%s|%s] %s\n", p.Section, p.Context, p.Text)
				}
			}
		}
	}
}
