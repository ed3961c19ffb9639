package lines

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a-0.jsonl": "1\n2\n", "a-1.jsonl": "3", "b.jsonl": "x\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := Each(filepath.Join(dir, "a-*.jsonl"), func(l []byte) error { got = append(got, string(l)); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"1", "2", "3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	err := Each(filepath.Join(dir, "a-*.jsonl"), func(l []byte) error {
		if string(l) == "2" {
			return errors.New("bad")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "a-0.jsonl:2: bad") {
		t.Errorf("error %v, want a-0.jsonl:2: bad", err)
	}
	if err := Each(filepath.Join(dir, "none-*"), func([]byte) error { return nil }); err == nil {
		t.Error("no file: no error")
	}
}
