package corpus

import (
	"bytes"
	"testing"
)

func TestOffsetIndex(t *testing.T) {
	var out bytes.Buffer
	x := &offsetIndex{w: &out, base: 1000}
	for _, part := range []string{"0:1:A\n57", "0:2:B\n", "", "600:3:C:D\n"} {
		if _, err := x.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.close(); err != nil {
		t.Fatal(err)
	}
	if want := "1000:1:A\n1570:2:B\n1600:3:C:D\n"; out.String() != want {
		t.Errorf("index %q, want %q", out.String(), want)
	}
}
