package hotkey

import (
	"bytes"
	"strings"
	"testing"
)

func write(t *testing.T, cfg Config) ([]byte, Stats) {
	t.Helper()
	var b bytes.Buffer
	st, err := Write(&b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != int64(b.Len()) {
		t.Errorf("Stats.Bytes = %d, wrote %d", st.Bytes, b.Len())
	}
	return b.Bytes(), st
}

func TestWrite(t *testing.T) {
	cfg := Config{Copies: 250, PerPage: 100, Seed: 7, Record: true}
	out, st := write(t, cfg)
	again, _ := write(t, cfg)
	if !bytes.Equal(out, again) {
		t.Error("the same config wrote different bytes")
	}
	other, _ := write(t, Config{Copies: 250, PerPage: 100, Seed: 8})
	if bytes.Equal(out, other) {
		t.Error("another seed wrote the same bytes")
	}

	if st.Pages != 3 || strings.Count(string(out), "<page>") != 3 {
		t.Errorf("%d pages (%d written), want 3", st.Pages, strings.Count(string(out), "<page>"))
	}
	if len(st.Copies) != 250 || st.Copies[0] != Exact || st.Ordinary != 3*2+250 {
		t.Errorf("%d copies, the first of text %d, %d ordinary sentences; want 250, %d, %d", len(st.Copies), st.Copies[0], st.Ordinary, Exact, 3*2+250)
	}
	count := map[uint16]int{}
	for _, c := range st.Copies {
		count[c]++
	}
	if len(count) != len(st.Texts) || count[Exact] < 250/2 {
		t.Errorf("%d texts used of %d, the exact one %d times", len(count), len(st.Texts), count[Exact])
	}

	// The recorded sentences: per page its lead and, for each copy, the
	// copy and an ordinary sentence; the copies in the order of Copies.
	var copies []uint16
	index := map[string]uint16{}
	for i, text := range st.Texts {
		index[text] = uint16(i)
	}
	sentences := 0
	for p, sents := range st.Sentences {
		sentences += len(sents)
		for _, s := range sents {
			if i, ok := index[s]; ok {
				copies = append(copies, i)
			} else if !strings.Contains(string(out), s) {
				t.Errorf("page %d: ordinary sentence %q not in the dump", p, s)
			}
		}
	}
	if sentences != 250+st.Ordinary || len(copies) != 250 {
		t.Errorf("%d sentences recorded, %d of them copies; want %d, 250", sentences, len(copies), 250+st.Ordinary)
	}
	for i := range copies {
		if copies[i] != st.Copies[i] {
			t.Fatalf("recorded copy %d is text %d, Copies says %d", i, copies[i], st.Copies[i])
		}
	}
	if got := Key(2, 5); got != "hotwiki:3:1000002:5" {
		t.Errorf("Key(2, 5) = %s", got)
	}
}

func TestControl(t *testing.T) {
	out, st := write(t, Config{Copies: 250, Seed: 7, Control: true})
	if st.Pages != 3 || len(st.Copies) != 0 || st.Ordinary != 3*2+2*250 {
		t.Errorf("%d pages, %d copies, %d ordinary sentences; want 3, 0, %d", st.Pages, len(st.Copies), st.Ordinary, 3*2+2*250)
	}
	if strings.Contains(string(out), "administrative district") {
		t.Error("the control corpus holds the template sentence")
	}
}

func TestWriteRefuses(t *testing.T) {
	for _, cfg := range []Config{{Copies: 0}, {Copies: 10, PerPage: -1}} {
		if _, err := Write(&bytes.Buffer{}, cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
