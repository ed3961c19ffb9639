package main

import "testing"

func TestParseSizes(t *testing.T) {
	if got, err := parseSizes("1, 2,8"); err != nil || len(got) != 3 || got[2] != 8 {
		t.Errorf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "1,x", "-2"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q): no error", bad)
		}
	}
}
