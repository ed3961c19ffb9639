package wikitext

import "testing"

func TestIsDebris(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"Ιανουάριος | Φεβρουάριος | Μάρτιος | Απρίλιος | Μάιος | Ιούνιος", true},
		{"1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 31", true},
		{"2004: Tháng 1 - tháng 2 - tháng 3 - tháng 4 - tháng 5 - tháng 6", true},
		{"फेब्रुवारी १ - फेब्रुवारी २ - फेब्रुवारी ३ - फेब्रुवारी ४ (फेब्रुवारी महिना)", true},
		{"Промислова революція • Просвітництво •Російська імперія •Велика французька революція", true},
		{"歯学 - 薬学 - 看護学 - 心理学 - 健康心理学", true},
		{"Δεκαετία 1980 | Δεκαετία 1990 | Δεκαετία 2000 | Δεκαετία 2010", true},
		{"151 - 158", true},
		{"1998.", true},
		{"(1931)", true},
		// Not debris.
		{"Paris - London - Berlin are capitals of three countries that trade a lot.", false},
		{"The road runs from A - B - C - D, and then it turns north towards the sea.", false},
		{"コブラ（1978 - 1984年、1986 - 2002年、2005 - 2006年） - アニメ化（劇場版・TV版・OVA ）・ゲーム化", false},
		{"He said it was good. Then - after a pause - he left - quietly - for home.", false},
		{"A | B", false},
		{"Apollo 8 launched in 1968.", false},
		{"***", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isDebris([]byte(tt.line)); got != tt.want {
			t.Errorf("isDebris(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestCleanDropsDebris(t *testing.T) {
	in := "Text of the page.\n\n[[Ιανουάριος]] | [[Φεβρουάριος]] | [[Μάρτιος]] | [[Απρίλιος]]\n\n* 1998\n* A real item.\nMore text.\n1 | 2 | 3 | 4 | 5\n"
	var c Cleaner
	got := c.Clean(in)
	want := []Paragraph{prose("", "Text of the page."), list("", "A real item."), prose("", "More text.")}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("paragraph %d: got %q, want %q", i, got[i], want[i])
		}
	}
	if c.Debris() != 3 {
		t.Errorf("Debris() = %d, want 3", c.Debris())
	}
	c.Clean("No debris here.")
	if c.Debris() != 0 {
		t.Errorf("Debris() after a clean page = %d, want 0", c.Debris())
	}
}
