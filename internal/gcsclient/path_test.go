package gcsclient

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, bucket, object string
		ok                   bool
	}{
		{"gs://b/o", "b", "o", true},
		{"gs://b/dir/run/a.jsonl", "b", "dir/run/a.jsonl", true},
		{"gs://b/a?b#c", "b", "a?b#c", true}, // not a URL query or fragment
		{"gs://b", "b", "", true},
		{"gs://b/", "b", "", true},
		{"gs:///o", "", "", false},
		{"/tmp/o", "", "", false},
		{"s3://b/o", "", "", false},
	} {
		bucket, object, err := Parse(tc.name)
		if (err == nil) != tc.ok || bucket != tc.bucket || object != tc.object {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, ok %v", tc.name, bucket, object, err, tc.bucket, tc.object, tc.ok)
		}
	}
}

func TestIsGCS(t *testing.T) {
	for name, want := range map[string]bool{"gs://b/o": true, "gs:/b": false, "/gs://b": false, "out/run": false} {
		if got := IsGCS(name); got != want {
			t.Errorf("IsGCS(%q) = %v, want %v", name, got, want)
		}
	}
}
