package progress

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/metricsx"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	"github.com/neardup/neardup/internal/counters"
)

// Snapshot is a job's counters in the tally namespace, by name: the live
// ones (PagesCounter, BytesCounter) and counters.Counts' fields reported so far.
type Snapshot map[string]int64

// stages are the counters that stages report when they finish, in
// pipeline order, and the stage that comes after each.
var stages = []struct{ counter, next string }{
	{"sentences", "signing"},
	{"signatures", "buckets"},
	{"candidate_edges", "verifying"},
	{"edges_verified", "components"},
	{"clusters", "categories"},
}

// Stage names what the job is doing, judged by the counters so far.
func (s Snapshot) Stage() string {
	stage := "reading"
	if s["sentences"] == 0 && s[PagesCounter] > 0 && s["pages_read"] > 0 {
		stage = "splitting" // every reader finished
	}
	for _, st := range stages {
		if s[st.counter] > 0 {
			stage = st.next
		}
	}
	return stage
}

// Line formats s as one progress line: elapsed time, stage, pages, input
// read (of total bytes, if known) and what later stages counted.
func (s Snapshot) Line(elapsed time.Duration, total int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "progress %s: %s; %s pages", clock(elapsed), s.Stage(), count(s[PagesCounter]))
	fmt.Fprintf(&b, ", %s", megabytes(s[BytesCounter]))
	if total > 0 {
		fmt.Fprintf(&b, " of %s (%d%%)", megabytes(total), min(100, s[BytesCounter]*100/total))
	}
	b.WriteString(" read")
	for _, f := range []struct{ name, label string }{
		{"sentences", "sentences"}, {"sentences_in_window", "in window"}, {"candidate_edges", "candidate pairs"},
		{"edges_verified", "verified edges"}, {"clusters", "clusters"},
	} {
		if v := s[f.name]; v > 0 {
			fmt.Fprintf(&b, "; %s %s", count(v), f.label)
		}
	}
	return b.String()
}

func clock(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

func megabytes(n int64) string {
	if n < 10<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// count writes n with a thousands separator: 1,234,567.
func count(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Fetch returns the current (attempted) counters of the job in the tally
// namespace, summed over the transforms that report them.
func Fetch(ctx context.Context, jobs jobpb.JobServiceClient, jobID string) (Snapshot, error) {
	resp, err := jobs.GetJobMetrics(ctx, &jobpb.GetJobMetricsRequest{JobId: jobID})
	if err != nil {
		return nil, fmt.Errorf("progress: metrics of job %s: %w", jobID, err)
	}
	m := resp.GetMetrics()
	res := metricsx.FromMonitoringInfos(nil, m.GetAttempted(), m.GetCommitted())
	snap := Snapshot{}
	for _, c := range res.AllMetrics().Counters() {
		if c.Key.Namespace == counters.Namespace {
			snap[c.Key.Name] += c.Result()
		}
	}
	return snap, nil
}

// Watch writes a progress line to w every interval while the job service
// runs a job, until ctx is done. total is the input's size in bytes (0 if
// unknown). Errors of the job service end the watch silently: progress is
// a courtesy, never a reason for a run to fail.
func Watch(ctx context.Context, jobs jobpb.JobServiceClient, interval time.Duration, total int64, w io.Writer) {
	start := time.Now()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		id, err := runningJob(ctx, jobs)
		if err != nil || id == "" {
			continue
		}
		snap, err := Fetch(ctx, jobs, id)
		if err != nil {
			continue
		}
		fmt.Fprintln(w, snap.Line(time.Since(start), total))
	}
}

// runningJob returns the id of the job the service is running, if any.
func runningJob(ctx context.Context, jobs jobpb.JobServiceClient) (string, error) {
	resp, err := jobs.GetJobs(ctx, &jobpb.GetJobsRequest{})
	if err != nil {
		return "", err
	}
	for _, j := range resp.GetJobInfo() {
		if j.GetState() == jobpb.JobState_RUNNING {
			return j.GetJobId(), nil
		}
	}
	return "", nil
}
