package launcher

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestMemoryFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		read func(string) int64
		file string
		want int64
	}{
		{"meminfo", meminfoTotal, write("meminfo", "MemTotal:       24684096 kB\nMemFree:        1234 kB\n"), 24684096 << 10},
		{"meminfo without MemTotal", meminfoTotal, write("meminfo2", "MemFree: 1 kB\n"), 0},
		{"meminfo missing", meminfoTotal, filepath.Join(dir, "none"), 0},
		{"cgroup v2 limit", cgroupLimit, write("memory.max", "8589934592\n"), 8 << 30},
		{"cgroup v2 no limit", cgroupLimit, write("memory.max2", "max\n"), 0},
		{"cgroup v1 no limit", cgroupLimit, write("limit_in_bytes", "9223372036854771712\n"), 9223372036854771712},
	}
	for _, tt := range tests {
		if got := tt.read(tt.file); got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestTuneGC(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	limit := TuneGC(getenv)
	if avail := AvailableMemory(); avail > 0 {
		if want := int64(float64(avail) * memoryShare); limit != want || debug.SetMemoryLimit(-1) != want {
			t.Errorf("limit %d, want 3/4 of %d", limit, avail)
		}
	}

	debug.SetMemoryLimit(1 << 40)
	env["GOMEMLIMIT"] = "2GiB" // the runtime read it at start; TuneGC leaves it
	if limit := TuneGC(getenv); limit != 0 {
		t.Errorf("TuneGC set a limit of %d with GOMEMLIMIT set", limit)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("TuneGC changed the memory limit to %d with GOMEMLIMIT set", got)
	}
}
