package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFlexDefaults checks that inside a Flex Template launcher
// (FLEX_TEMPLATE_GO_BINARY set) the launching binary becomes the workers'
// binary unless --worker_binary was given, and that nothing changes outside
// one.
func TestFlexDefaults(t *testing.T) {
	const launcher = "/template/sentences-v0.2.0-linux-amd64"
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"in a launcher", launcher, nil, launcher},
		{"in a launcher, given", launcher, []string{"--worker_binary=/elsewhere/worker"}, "/elsewhere/worker"},
		{"in a launcher, given empty", launcher, []string{"--worker_binary="}, ""},
		{"outside a launcher", "", nil, ""},
		{"outside a launcher, given", "", []string{"--worker_binary=dist/w"}, "dist/w"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("sentences", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			worker := fs.String("worker_binary", "", "")
			fs.String("input", "", "")
			if err := fs.Parse(append([]string{"--input=gs://b/d.xml"}, tc.args...)); err != nil {
				t.Fatal(err)
			}
			getenv := func(name string) string {
				if name == flexBinaryEnv {
					return tc.env
				}
				return "unexpected"
			}
			if err := flexDefaults(getenv, fs); err != nil {
				t.Fatal(err)
			}
			if *worker != tc.want {
				t.Errorf("--worker_binary = %q, want %q", *worker, tc.want)
			}
		})
	}
}

// TestFlexDefaultsNeedsTheBeamFlag checks that flexDefaults fails, naming
// the variable, where --worker_binary is not defined, and that the binary
// defines it (Beam's flag, which flexDefaults sets by name).
func TestFlexDefaultsNeedsTheBeamFlag(t *testing.T) {
	fs := flag.NewFlagSet("sentences", flag.ContinueOnError)
	err := flexDefaults(func(string) string { return "/template/sentences" }, fs)
	if err == nil || !strings.Contains(err.Error(), flexBinaryEnv) {
		t.Errorf("flexDefaults without a worker_binary flag: %v, want an error naming %s", err, flexBinaryEnv)
	}
	if flag.Lookup("worker_binary") == nil {
		t.Error("the binary defines no --worker_binary flag: Beam renamed it, and flexDefaults sets nothing")
	}
}

// TestFlexTemplateDryRun runs the binary as the Flex Template launcher runs
// it, with FLEX_TEMPLATE_GO_BINARY set and no --worker_binary, in a
// Dataflow dry run: the job it would submit must name the launcher as the
// workers' binary.
func TestFlexTemplateDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	tmp := t.TempDir()
	bin := buildGo(t, tmp, "sentences", ".")
	emulator := startGCSEmulator(t, "neardup-flex", map[string]string{
		"dumps/simplewiki-sample.xml": "../../testdata/sample/simplewiki-sample.xml",
	})
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--runner=dataflow", "--dry_run",
		"--project=neardup-test", "--region=europe-west1", "--staging_location=gs://neardup-flex/staging",
		"--input=gs://neardup-flex/dumps/*.xml", "--output=gs://neardup-flex/out", "--run_id=flex-1")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "STORAGE_EMULATOR_HOST="+emulator.host, "TMPDIR="+tmp, flexBinaryEnv+"="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, tail(out, 6000))
	}
	var job struct {
		Environment struct {
			SdkPipelineOptions struct {
				GoOptions struct {
					Options map[string]string `json:"options"`
				} `json:"beam:option:go_options:v1"`
			} `json:"sdkPipelineOptions"`
		} `json:"environment"`
	}
	if err := json.Unmarshal(printedJob(t, out), &job); err != nil {
		t.Fatal(err)
	}
	if got := job.Environment.SdkPipelineOptions.GoOptions.Options["worker_binary"]; got != bin {
		t.Errorf("the job's worker_binary is %q, want the launcher, %s", got, bin)
	}
}
