package launcher

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memoryShare is the share of the machine's (or the container's) memory the
// heap is limited to when GOMEMLIMIT is not set.
const memoryShare = 0.75

// TuneGC sets a soft memory limit for a process that runs the pipeline's
// workers, unless GOMEMLIMIT is set: 3/4 of the memory available (the
// cgroup's limit if lower than the machine's). Near the limit the collector
// runs more often instead of letting the heap grow past it. GOGC is left
// at Go's default, 100: with the shuffles spilled (--spill_dir) the live
// heap is small, and collecting at 3× it instead of 2× (GOGC 200, the
// setting before) cost 36% more peak memory on the 32× benchmark corpus
// (1.19 against 0.88 GB) for no measurable CPU. It returns the limit set
// (0 if none).
func TuneGC(getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return 0
	}
	avail := AvailableMemory()
	if avail <= 0 {
		return 0
	}
	limit := int64(float64(avail) * memoryShare)
	debug.SetMemoryLimit(limit)
	return limit
}

// AvailableMemory is the memory this process may use: the machine's
// (MemTotal of /proc/meminfo), or its cgroup's limit (v2 memory.max, v1
// memory.limit_in_bytes) when lower; 0 where neither can be read.
func AvailableMemory() int64 {
	total := meminfoTotal("/proc/meminfo")
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if c := cgroupLimit(f); c > 0 && (total == 0 || c < total) {
			total = c
		}
	}
	return total
}

// meminfoTotal reads MemTotal, in bytes, from a /proc/meminfo file.
func meminfoTotal(name string) int64 {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit reads a cgroup memory limit file: bytes, or "max" (none).
// v1 reports no limit as a huge number, which the caller's comparison
// with the machine's memory ignores.
func cgroupLimit(name string) int64 {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
