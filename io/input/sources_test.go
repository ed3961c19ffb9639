package input

import (
	"testing"

	"github.com/neardup/neardup/io/dump"
	"github.com/neardup/neardup/io/multistream"
)

func TestTextBytes(t *testing.T) {
	src := Sources{
		Dumps:       []dump.Source{{File: "/d/a.xml", Size: 100}, {File: "gs://b/c.xml.bz2", Size: 10}, {File: "x.XML.XZ", Size: 10}},
		Multistream: []multistream.Source{{File: "m-multistream.xml.bz2", Size: 3}},
	}
	if got, want := src.TextBytes(), int64(100+40+50+12); got != want {
		t.Errorf("TextBytes() = %d, want %d", got, want)
	}
	if got := src.ReadBytes(); got != 123 {
		t.Errorf("ReadBytes() = %d, want 123", got)
	}
}
