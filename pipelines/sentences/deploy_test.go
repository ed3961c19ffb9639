package main

// Tests of what deploy/ and scripts/ ship: every YAML and JSON file parses,
// every pipeline parameter they name is a flag of the binary, the Beam
// images match the Beam version the binary is built with, the Dataflow
// submission carries the flags (checked offline with the runner's
// --dry_run against an in-process GCS emulator), and release builds are
// reproducible.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"gopkg.in/yaml.v3"

	"github.com/neardup/neardup/pipelines/internal/launcher"
)

const deployDir = "../../deploy"

// airflowDAG is the Airflow DAG, relative to the repository root.
const airflowDAG = "deploy/dataflow/airflow/neardup_dag.py"

// paramUse is one pipeline parameter named by a deploy file.
type paramUse struct {
	file, name, value string
}

// deployDoc is one parsed YAML document or JSON file.
type deployDoc struct {
	file string
	doc  any
}

// parseDeployFiles parses every YAML and JSON file under deploy/ and fails
// the test on the first that does not parse.
func parseDeployFiles(t *testing.T) []deployDoc {
	t.Helper()
	var docs []deployDoc
	err := filepath.WalkDir(deployDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		switch filepath.Ext(path) {
		case ".json":
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			docs = append(docs, deployDoc{rel, v})
		case ".yaml", ".yml":
			dec := yaml.NewDecoder(bytes.NewReader(b))
			for {
				var v any
				err := dec.Decode(&v)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Errorf("%s: %v", rel, err)
					break
				}
				docs = append(docs, deployDoc{rel, v})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatalf("no YAML or JSON file under %s", deployDir)
	}
	return docs
}

// walk calls visit on every map in v, depth first.
func walk(v any, visit func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		visit(v)
		for _, e := range v {
			walk(e, visit)
		}
	case []any:
		for _, e := range v {
			walk(e, visit)
		}
	}
}

func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// isPipelineContainer reports whether a Kubernetes container or compose
// service runs the pipeline binary.
func isPipelineContainer(m map[string]any) bool {
	image, _ := m["image"].(string)
	entry := stringList(m["entrypoint"])
	return strings.Contains(image, "/neardup:") || len(entry) > 0 && strings.HasSuffix(entry[0], "/sentences")
}

// flagArgs returns the --name=value arguments of a command line.
func flagArgs(file string, args []string) []paramUse {
	var uses []paramUse
	for _, a := range args {
		if f, ok := strings.CutPrefix(a, "--"); ok {
			name, value, _ := strings.Cut(f, "=")
			uses = append(uses, paramUse{file, name, value})
		}
	}
	return uses
}

// templateParams returns the names declared by metadata.json, with their
// validation regexes.
func templateParams(t *testing.T, docs []deployDoc) map[string][]string {
	t.Helper()
	params := map[string][]string{}
	for _, d := range docs {
		if !strings.HasSuffix(d.file, "/metadata.json") {
			continue
		}
		var meta struct {
			Parameters []struct {
				Name    string   `json:"name"`
				Regexes []string `json:"regexes"`
			} `json:"parameters"`
		}
		remarshal(t, d, &meta)
		for _, p := range meta.Parameters {
			if _, dup := params[p.Name]; dup {
				t.Errorf("%s declares %q twice", d.file, p.Name)
			}
			params[p.Name] = p.Regexes
		}
	}
	if len(params) == 0 {
		t.Fatal("no parameter in deploy/dataflow/metadata.json")
	}
	return params
}

func remarshal(t *testing.T, d deployDoc, into any) {
	t.Helper()
	b, err := json.Marshal(d.doc)
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err != nil {
		t.Fatalf("%s: %v", d.file, err)
	}
}

// dagOptions returns the keys and values of PIPELINE_OPTIONS in the Airflow
// DAG, a dict literal of one "key": value per line.
func dagOptions(t *testing.T, path string) []paramUse {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "\nPIPELINE_OPTIONS = {\n")
	block, _, closed := strings.Cut(block, "\n}\n")
	if !ok || !closed {
		t.Fatalf("%s: no PIPELINE_OPTIONS = {...} block", path)
	}
	entry := regexp.MustCompile(`^\s+"([a-z_]+)":\s*(.*?),?$`)
	var uses []paramUse
	for _, line := range strings.Split(block, "\n") {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s: PIPELINE_OPTIONS line %q is not `\"key\": value,`", path, line)
		}
		uses = append(uses, paramUse{path, m[1], m[2]})
	}
	return uses
}

// deployParams collects every pipeline parameter the deploy files name.
func deployParams(t *testing.T, docs []deployDoc) []paramUse {
	t.Helper()
	var uses []paramUse
	for _, d := range docs {
		switch {
		case strings.HasSuffix(d.file, "/metadata.json"):
			for name := range templateParams(t, []deployDoc{d}) {
				uses = append(uses, paramUse{d.file, name, ""})
			}
		case d.file == workflowFile:
			// The launch as the workflow would make it on 12 June 2026.
			_, launch := workflowLaunch(t, d.doc, time.Date(2026, 6, 12, 6, 0, 0, 0, time.UTC))
			params, _ := launch["parameters"].(map[string]any)
			for name, value := range params {
				s, ok := value.(string)
				if !ok {
					t.Errorf("%s: parameter %s = %v, not a string", d.file, name, value)
				}
				uses = append(uses, paramUse{d.file, name, s})
			}
		default: // compose services and Kubernetes containers
			walk(d.doc, func(m map[string]any) {
				if isPipelineContainer(m) {
					uses = append(uses, flagArgs(d.file, append(stringList(m["command"]), stringList(m["args"])...))...)
				}
			})
		}
	}
	return append(uses, dagOptions(t, airflowDAG)...)
}

// mainFlags returns the pipeline's flags: those main.go defines, parsed
// from its source, and the common ones (launcher.RegisterCommon).
func mainFlags(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || len(call.Args) < 2 {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "flag" {
			return true
		}
		arg := call.Args[0] // flag.String("name", ...)
		if strings.HasSuffix(sel.Sel.Name, "Var") {
			arg = call.Args[1] // flag.StringVar(&v, "name", ...)
		}
		if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if name, err := strconv.Unquote(lit.Value); err == nil {
				names = append(names, name)
			}
		}
		return true
	})
	names = append(names, launcher.CommonFlags()...)
	if !slices.Contains(names, "input") || !slices.Contains(names, "output") {
		t.Fatalf("found no --input and --output definitions in main.go: %q", names)
	}
	return names
}

// beamVersion is the version of the Beam Go SDK in go.mod.
func beamVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/apache/beam/sdks/v2 v([0-9.]+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod does not require github.com/apache/beam/sdks/v2")
	}
	return string(m[1])
}

// TestDeployFiles parses every YAML and JSON file under deploy/ and checks
// them against the pipeline: the template declares every pipeline flag, the
// parameters named anywhere are flags of the binary with valid values, the
// Beam images are of the SDK's version, and the portable submissions use the
// worker pool sidecar.
func TestDeployFiles(t *testing.T) {
	docs := parseDeployFiles(t)
	uses := deployParams(t, docs)
	template := templateParams(t, docs)

	// Each file that submits the pipeline names some of its parameters: if the
	// extraction breaks, this fails instead of checking nothing.
	perFile := map[string]int{}
	for _, u := range uses {
		perFile[u.file]++
	}
	for _, f := range []string{
		"deploy/flink/docker-compose.yml", "deploy/flink/k8s/submit-job.yaml",
		"deploy/spark/docker-compose.yml", "deploy/spark/k8s/submit-job.yaml",
		"deploy/dataflow/metadata.json", workflowFile,
		airflowDAG,
	} {
		if perFile[f] < 3 {
			t.Errorf("%s names %d pipeline parameters, want at least input, output and one more", f, perFile[f])
		}
	}

	t.Run("template declares every pipeline flag", func(t *testing.T) {
		// --version, --cpuprofile, --memprofile, --spill_dir (workers in
		// this process only), --quiet, --verbose and --progress_interval concern the
		// launching process only.
		launcherOnly := map[string]bool{"version": true, "cpuprofile": true, "memprofile": true, "spill_dir": true, "quiet": true, "verbose": true, "progress_interval": true}
		for _, name := range mainFlags(t) {
			if _, ok := template[name]; !ok && !launcherOnly[name] {
				t.Errorf("metadata.json does not declare --%s", name)
			}
		}
	})

	t.Run("the template leaves worker_binary to the launcher", func(t *testing.T) {
		// --worker_binary is a Beam flag, so the check above does not ask for
		// it, and it must not be a template parameter either: inside the
		// Flex Template launcher the binary sets it to itself, from
		// FLEX_TEMPLATE_GO_BINARY (flexDefaults), and a parameter could only
		// name a wrong path. Nor may a launch of the template pass it.
		if _, ok := template["worker_binary"]; ok {
			t.Error("metadata.json declares worker_binary; the launcher sets it (flexDefaults)")
		}
		for _, u := range uses {
			if u.name == "worker_binary" && strings.Contains(u.file, "/dataflow/scheduler/") {
				t.Errorf("%s passes worker_binary=%q to the template; the launcher sets it (flexDefaults)", u.file, u.value)
			}
		}
	})

	t.Run("values match the template's regexes", func(t *testing.T) {
		for _, u := range uses {
			if u.file != workflowFile {
				continue
			}
			regexes, ok := template[u.name]
			if !ok {
				t.Errorf("%s: parameter %q is not declared in metadata.json", u.file, u.name)
			}
			for _, expr := range regexes {
				re, err := regexp.Compile(expr)
				if err != nil {
					t.Errorf("metadata.json: %q: %v", u.name, err)
				} else if !re.MatchString(u.value) {
					t.Errorf("%s: %s=%q does not match %s", u.file, u.name, u.value, expr)
				}
			}
		}
	})

	t.Run("portable submissions use the worker pool sidecar", func(t *testing.T) {
		byFile := map[string]map[string]string{}
		for _, u := range uses {
			if strings.Contains(u.file, "/flink/") || strings.Contains(u.file, "/spark/") {
				if byFile[u.file] == nil {
					byFile[u.file] = map[string]string{}
				}
				byFile[u.file][u.name] = u.value
			}
		}
		for file, flags := range byFile {
			want := map[string]string{
				"environment_type":   "EXTERNAL",
				"environment_config": fmt.Sprintf("localhost:%d", workerPoolPort),
				"runner":             map[bool]string{true: "flink", false: "spark"}[strings.Contains(file, "/flink/")],
			}
			for name, value := range want {
				if flags[name] != value {
					t.Errorf("%s: --%s=%q, want %q", file, name, flags[name], value)
				}
			}
			if flags["worker_binary"] == "" || flags["endpoint"] == "" {
				t.Errorf("%s: no --worker_binary or --endpoint", file)
			}
		}
	})

	t.Run("Beam images match go.mod", func(t *testing.T) {
		want := beamVersion(t)
		images := 0
		for _, d := range docs {
			walk(d.doc, func(m map[string]any) {
				image, _ := m["image"].(string)
				if name, tag, ok := strings.Cut(image, ":"); ok && strings.HasPrefix(name, "apache/beam_") {
					images++
					if tag != want {
						t.Errorf("%s: %s, want tag %s (Beam in go.mod)", d.file, image, want)
					}
				}
			})
		}
		if images < 6 {
			t.Errorf("found %d apache/beam_* images; want the job server and worker pool of each runner's compose file and manifests", images)
		}
	})

	t.Run("scheduler job runs the workflow", func(t *testing.T) {
		jobs := 0
		for _, d := range docs {
			if !strings.HasSuffix(d.file, "/scheduler/job.yaml") {
				continue
			}
			jobs++
			m, _ := d.doc.(map[string]any)
			if uri, _ := m["--uri"].(string); !strings.HasSuffix(uri, "/workflows/neardup-enwiki/executions") {
				t.Errorf("%s: --uri %q does not run the workflow neardup-enwiki", d.file, uri)
			}
		}
		if jobs != 1 {
			t.Errorf("found %d scheduler jobs, want 1", jobs)
		}
	})

	t.Run("Airflow DAG compiles", func(t *testing.T) {
		python, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 not found")
		}
		dag := filepath.Join("../..", airflowDAG)
		out, err := exec.Command(python, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", dag).CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", dag, err, out)
		}
	})

	t.Run("parameters are flags of the binary", func(t *testing.T) {
		// The test binary links this package's main.go and the runners beamx
		// registers, so it defines every flag the pipeline binary does (and
		// go test's own test.* flags, which are excluded).
		for _, u := range uses {
			if flag.Lookup(u.name) == nil || strings.HasPrefix(u.name, "test.") {
				t.Errorf("%s: %q is not a flag of the pipeline binary", u.file, u.name)
			}
		}
	})
}

// TestDataflowDryRun builds the submission to Dataflow without sending it:
// the launcher expands a gs:// input and checks a gs:// output on an
// in-process GCS emulator, and the job it prints must carry the pipeline's
// flags, the worker binary's staging location and the worker settings.
func TestDataflowDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	tmp := t.TempDir()
	bin := buildGo(t, tmp, "sentences", ".")
	emulator := startGCSEmulator(t, "neardup-dry-run", map[string]string{
		"dumps/simplewiki-sample.xml": "../../testdata/sample/simplewiki-sample.xml",
	})

	args := []string{
		"--runner=dataflow", "--dry_run",
		"--project=neardup-test", "--region=europe-west1",
		"--staging_location=gs://neardup-dry-run/staging", "--temp_location=gs://neardup-dry-run/tmp",
		"--worker_binary=" + bin, "--job_name=neardup-dry-run",
		"--worker_machine_type=n2-standard-4", "--max_num_workers=7",
		"--input=gs://neardup-dry-run/dumps/*.xml", "--output=gs://neardup-dry-run/out",
		"--scheme=weissman", "--shards=16", "--output_shards=3", "--namespaces=0,14",
	}
	if flagNames(t, bin)["run_id"] {
		args = append(args, "--run_id=dry-run-1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "STORAGE_EMULATOR_HOST="+emulator.host, "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, tail(out, 6000))
	}
	job := printedJob(t, out)

	var got struct {
		ProjectID   string `json:"projectId"`
		Name        string `json:"name"`
		Type        string `json:"type"`
		Environment struct {
			TempStoragePrefix  string `json:"tempStoragePrefix"`
			SdkPipelineOptions struct {
				Options struct {
					Region string `json:"region"`
				} `json:"options"`
				GoOptions struct {
					Options map[string]string `json:"options"`
				} `json:"beam:option:go_options:v1"`
			} `json:"sdkPipelineOptions"`
			WorkerPools []struct {
				MachineType         string `json:"machineType"`
				AutoscalingSettings struct {
					MaxNumWorkers int `json:"maxNumWorkers"`
				} `json:"autoscalingSettings"`
				Packages []struct {
					Name, Location string
				} `json:"packages"`
			} `json:"workerPools"`
		} `json:"environment"`
	}
	if err := json.Unmarshal(job, &got); err != nil {
		t.Fatalf("printed job: %v\n%s", err, job)
	}
	env := got.Environment
	if got.ProjectID != "neardup-test" || got.Name != "neardup-dry-run" || got.Type != "JOB_TYPE_BATCH" ||
		env.SdkPipelineOptions.Options.Region != "europe-west1" || env.TempStoragePrefix != "gs://neardup-dry-run/tmp" {
		t.Errorf("job %q in %q (%s), region %q, temp %q; want neardup-dry-run in neardup-test (JOB_TYPE_BATCH), europe-west1, gs://neardup-dry-run/tmp",
			got.Name, got.ProjectID, got.Type, env.SdkPipelineOptions.Options.Region, env.TempStoragePrefix)
	}
	if len(env.WorkerPools) != 1 {
		t.Fatalf("%d worker pools, want 1", len(env.WorkerPools))
	}
	pool := env.WorkerPools[0]
	if pool.MachineType != "n2-standard-4" || pool.AutoscalingSettings.MaxNumWorkers != 7 {
		t.Errorf("worker pool %s with at most %d workers, want n2-standard-4 and 7", pool.MachineType, pool.AutoscalingSettings.MaxNumWorkers)
	}
	if len(pool.Packages) == 0 || pool.Packages[0].Name != "worker" || !strings.HasPrefix(pool.Packages[0].Location, "gs://neardup-dry-run/staging/") {
		t.Errorf("packages %+v, want the worker binary staged under gs://neardup-dry-run/staging/", pool.Packages)
	}
	options := env.SdkPipelineOptions.GoOptions.Options
	for _, a := range args {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		switch name {
		case "runner", "dry_run", "project", "region", "staging_location", "job_name", "worker_machine_type", "max_num_workers":
			continue // job fields, not pipeline options
		}
		if options[name] != value {
			t.Errorf("pipeline option %s = %q, want %q", name, options[name], value)
		}
	}

	// The launcher checked that the output is writable, and left nothing.
	if objs := emulator.objects(t, "out/"); len(objs) != 0 {
		t.Errorf("the dry run left %q in the output", objs)
	}
}

// printedJob finds the Dataflow job the runner logged as indented JSON: a
// log line whose message, quoted or not, is a JSON object with a projectId.
func printedJob(t *testing.T, out []byte) []byte {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		_, rest, ok := strings.Cut(line, " msg=")
		if !ok {
			continue
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			continue
		}
		msg, _ := strconv.Unquote(quoted)
		if strings.HasPrefix(msg, "{") && strings.Contains(msg, `"projectId"`) {
			return []byte(msg)
		}
	}
	// Unquoted: a JSON object printed over several lines.
	for i := 0; ; {
		j := bytes.Index(out[i:], []byte("{\n"))
		if j < 0 {
			break
		}
		var v map[string]any
		if err := json.NewDecoder(bytes.NewReader(out[i+j:])).Decode(&v); err == nil && v["projectId"] != nil {
			b, _ := json.Marshal(v)
			return b
		}
		i += j + 1
	}
	t.Fatalf("the dry run printed no job:\n%s", tail(out, 6000))
	return nil
}

// gcsEmulator is an in-process fake GCS server.
type gcsEmulator struct {
	srv    *fakestorage.Server
	host   string
	bucket string
}

// startGCSEmulator serves a bucket holding the given local files (by object
// name) on a loopback port. Clients find it through STORAGE_EMULATOR_HOST;
// it must also be the server's PublicHost, where the storage client reads
// objects.
func startGCSEmulator(t *testing.T, bucket string, files map[string]string) *gcsEmulator {
	t.Helper()
	var objects []fakestorage.Object
	for name, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		objects = append(objects, fakestorage.Object{
			ObjectAttrs: fakestorage.ObjectAttrs{BucketName: bucket, Name: name},
			Content:     b,
		})
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	host := fmt.Sprintf("127.0.0.1:%d", port)
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		InitialObjects: objects, Scheme: "http", Host: "127.0.0.1", Port: uint16(port), PublicHost: host, Writer: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	return &gcsEmulator{srv: srv, host: host, bucket: bucket}
}

func (e *gcsEmulator) objects(t *testing.T, prefix string) []string {
	t.Helper()
	resp, err := e.srv.ListObjectsWithOptionsPaginated(e.bucket, fakestorage.ListOptions{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range resp.Objects {
		names = append(names, a.Name)
	}
	return names
}

// TestReleaseReproducible runs scripts/release.sh for the host's platform
// twice, from the repository and from a copy of its sources at another path,
// and checks that the checksums agree and that the binary reports the
// stamped version and commit: the checkout's location and the output
// directory must not change a byte. (The build cache is shared; a cold-cache
// rebuild takes minutes on two cores, see the CHANGELOG.)
func TestReleaseReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary twice; skipped with -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	const version, commit = "v0.0.0-test", "0123abcd"
	roots := []string{"../..", copySources(t, "../..")}
	var sums [2][]byte
	var dist [2]string
	for i, root := range roots {
		dist[i] = t.TempDir()
		cmd := exec.Command(bash, filepath.Join(root, "scripts", "release.sh"))
		cmd.Env = append(os.Environ(), "VERSION="+version, "COMMIT="+commit,
			"TARGETS="+runtime.GOOS+"/"+runtime.GOARCH, "DIST="+dist[i])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("release.sh in %s: %v\n%s", root, err, out)
		}
		if sums[i], err = os.ReadFile(filepath.Join(dist[i], "SHA256SUMS")); err != nil {
			t.Fatal(err)
		}
	}
	for _, pipeline := range []string{"sentences", "reuse", "explore"} {
		name := fmt.Sprintf("%s-%s-%s-%s", pipeline, version, runtime.GOOS, runtime.GOARCH)
		if !bytes.Equal(sums[0], sums[1]) || !bytes.Contains(sums[0], []byte("  "+name+"\n")) {
			t.Errorf("the two builds of %s differ or are missing:\n%s\n%s", name, sums[0], sums[1])
		}
		out, err := exec.Command(filepath.Join(dist[0], name), "--version").CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte(version)) || !bytes.Contains(out, []byte(commit)) {
			t.Errorf("%s --version = %q (%v), want it to name %s and %s", name, out, err, version, commit)
		}
	}
}

// copySources copies what a release build reads (go.mod, go.sum, the
// non-test Go files and scripts/release.sh) from root to a new directory.
func copySources(t *testing.T, root string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "dist", "out", "deploy", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		// Every file but the tests: the packages embed templates, styles and
		// data files of any name.
		if strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o755)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// imageRef is an image named by a deploy file.
type imageRef struct {
	file, ref string
}

// deployImages returns every image the files under deploy/ name: the FROM
// lines of the Dockerfiles and the image fields of the compose files and
// Kubernetes manifests.
func deployImages(t *testing.T) []imageRef {
	t.Helper()
	var refs []imageRef
	for _, d := range parseDeployFiles(t) {
		walk(d.doc, func(m map[string]any) {
			if image, ok := m["image"].(string); ok {
				refs = append(refs, imageRef{d.file, image})
			}
		})
	}
	dockerfiles, err := filepath.Glob(filepath.Join(deployDir, "*", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	top, err := filepath.Glob(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append(top, dockerfiles...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		stages := map[string]bool{"scratch": true}
		for _, line := range strings.Split(string(b), "\n") {
			fields := strings.Fields(line)
			if len(fields) < 2 || !strings.EqualFold(fields[0], "FROM") {
				continue
			}
			fields = slices.DeleteFunc(fields[1:], func(f string) bool { return strings.HasPrefix(f, "--") })
			if len(fields) == 0 {
				t.Errorf("%s: %q names no image", rel, line)
				continue
			}
			if !stages[strings.ToLower(fields[0])] {
				refs = append(refs, imageRef{rel, fields[0]})
			}
			if len(fields) == 3 && strings.EqualFold(fields[1], "AS") {
				stages[strings.ToLower(fields[2])] = true
			}
		}
	}
	return refs
}

// floatingTag matches tags that move to each new release: a major version,
// or a major and minor one ("1.20" is 1.20.0 today and 1.20.3 next year).
var floatingTag = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+)?$`)

// imageProblem says why an image reference is not pinned, or returns "" if
// it is: by digest, or by a tag that names one release.
func imageProblem(ref string) string {
	if strings.Contains(ref, "$") {
		return "is chosen by a variable: pin it in the file"
	}
	if _, digest, ok := strings.Cut(ref, "@sha256:"); ok {
		if len(digest) != 64 {
			return "has a malformed digest"
		}
		return ""
	}
	tag := ""
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		tag = ref[i+1:]
	}
	switch {
	case tag == "":
		return "has no tag, which means :latest; pin a release"
	case tag == "latest":
		return "is :latest; pin a release"
	case floatingTag.MatchString(tag):
		return "has a tag that moves with each patch release; pin the patch release"
	}
	return ""
}

// TestDeployImagesPinned checks that every image deploy/ names is pinned
// (imageProblem). An image without a tag is :latest, which changes under a
// redeployment: a Flex Template rebuilt from it would launch with another
// launcher than the release was tested with.
func TestDeployImagesPinned(t *testing.T) {
	refs := deployImages(t)
	froms := 0
	for _, r := range refs {
		if strings.HasSuffix(r.file, "Dockerfile") {
			froms++
		}
		if p := imageProblem(r.ref); p != "" {
			t.Errorf("%s: image %s %s", r.file, r.ref, p)
		}
	}
	// Two Dockerfiles, and the compose files' and manifests' images: if the
	// extraction breaks, this fails instead of checking nothing.
	if froms < 2 || len(refs) < 15 {
		t.Errorf("found %d images, %d of them in Dockerfiles; want at least 15 and 2", len(refs), froms)
	}
}

// TestDeployImageProblems checks what TestDeployImagesPinned refuses, so
// that it cannot pass by accepting everything.
func TestDeployImageProblems(t *testing.T) {
	digest := strings.Repeat("ab", 32)
	for ref, pinned := range map[string]bool{
		"flink":                          false,
		"flink:latest":                   false,
		"flink:1.20":                     false,
		"apache/spark:3":                 false,
		"localhost:5000/neardup":         false,
		"img@sha256:abc":                 false,
		"${BASE_IMAGE}":                  false,
		"flink:1.20.1-scala_2.12-java11": true,
		"apache/beam_go_sdk:2.77.0":      true,
		"gcr.io/dataflow-templates-base/go-template-launcher-base:20260122_RC00": true,
		"gcr.io/distroless/static-debian12:nonroot":                              true,
		"localhost:5000/neardup:v0.2.0":                                          true,
		"gcr.io/distroless/static-debian12@sha256:" + digest:                     true,
	} {
		if p := imageProblem(ref); (p == "") != pinned {
			t.Errorf("imageProblem(%q) = %q, want pinned = %v", ref, p, pinned)
		}
	}
}

// dockerfileFrom returns the image of the first FROM line of a Dockerfile.
func dockerfileFrom(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.EqualFold(f[0], "FROM") {
			return f[1]
		}
	}
	t.Fatalf("%s: no FROM line", path)
	return ""
}

// TestDeployTemplateScript runs scripts/template.sh with DRY_RUN=1 and checks the
// commands it would run: no docker (the image is built by gcloud on Cloud
// Build), and a flex-template build of the linux/amd64 release binary on the
// base image pinned in deploy/dataflow/Dockerfile, whose
// FLEX_TEMPLATE_GO_BINARY names that binary. Where gcloud is installed, it
// also has gcloud generate the image's Dockerfile from those flags (gcloud
// stops before the build, for want of an account) and compares it with
// deploy/dataflow/Dockerfile.
func TestDeployTemplateScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	const version = "v0.2.0"
	cmd := exec.Command(bash, "../../scripts/template.sh")
	cmd.Env = append(os.Environ(), "DRY_RUN=1", "PROJECT=my-project", "REGION=europe-west1", "BUCKET=my-bucket",
		"VERSION="+version, "BASE_IMAGE=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("template.sh: %v\n%s", err, out)
	}
	var build []string
	for _, line := range strings.Split(string(out), "\n") {
		args := strings.Fields(strings.ReplaceAll(line, `\`, ""))
		if len(args) > 0 && (args[0] == "docker" || slices.Contains(args, "docker")) {
			t.Errorf("template.sh runs docker: %s", line)
		}
		if len(args) > 3 && strings.Join(args[:3], " ") == "gcloud dataflow flex-template" && args[3] == "build" {
			build = args
		}
	}
	if build == nil {
		t.Fatalf("template.sh prints no gcloud dataflow flex-template build:\n%s", out)
	}
	flags := map[string]string{}
	for _, a := range build[5:] {
		name, value, _ := strings.Cut(a, "=")
		flags[name] = value
	}
	base := dockerfileFrom(t, filepath.Join(deployDir, "dataflow", "Dockerfile"))
	binary := "sentences-" + version + "-linux-amd64"
	want := map[string]string{
		"--sdk-language":             "GO",
		"--flex-template-base-image": base,
		"--go-binary-path":           "dist/" + binary,
		"--env":                      "FLEX_TEMPLATE_GO_BINARY=" + binary,
		"--metadata-file":            "deploy/dataflow/metadata.json",
		"--image-gcr-path":           "europe-west1-docker.pkg.dev/my-project/neardup/neardup-template:" + version,
	}
	for name, value := range want {
		if flags[name] != value {
			t.Errorf("flex-template build %s=%q, want %q", name, flags[name], value)
		}
	}
	if spec := build[4]; spec != "gs://my-bucket/templates/neardup-"+version+".json" {
		t.Errorf("template spec %s, want gs://my-bucket/templates/neardup-%s.json", spec, version)
	}
	if _, err := os.Stat(filepath.Join("../..", flags["--metadata-file"])); err != nil {
		t.Error(err)
	}
	if readme, err := os.ReadFile(filepath.Join(deployDir, "dataflow", "README.md")); err != nil {
		t.Error(err)
	} else if !bytes.Contains(readme, []byte("--flex-template-base-image="+base+" ")) {
		t.Errorf("deploy/dataflow/README.md does not show the base image pinned in the Dockerfile, %s", base)
	}

	gcloud, err := exec.LookPath("gcloud")
	if err != nil {
		return // the flags are checked; gcloud's reading of them is not
	}
	// gcloud copies --go-binary-path to /template/ and prefixes the name in
	// --env with /template/: the image it generates must be ours.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", binary), []byte("not a binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile("../../deploy/dataflow/metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deploy", "dataflow"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deploy", "dataflow", "metadata.json"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := exec.CommandContext(ctx, gcloud, build[1:]...)
	g.Dir = dir
	g.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "CLOUDSDK_CONFIG=" + filepath.Join(dir, "gcloud"),
		"CLOUDSDK_CORE_DISABLE_PROMPTS=1"} // no account: gcloud stops before Cloud Build
	gout, _ := g.CombinedOutput()
	_, generated, ok := strings.Cut(string(gout), "Generated Dockerfile. Contents:")
	if !ok {
		t.Fatalf("gcloud generated no Dockerfile:\n%s", gout)
	}
	ours, err := os.ReadFile("../../deploy/dataflow/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []string{
		"FROM " + base,
		"ENV FLEX_TEMPLATE_GO_BINARY=/template/" + binary,
		"COPY " + binary + " /template/",
	}
	oursText := strings.ReplaceAll(string(ours), "${VERSION}", version)
	for _, line := range wantLines {
		if !strings.Contains(generated, line+"\n") {
			t.Errorf("gcloud's Dockerfile lacks %q:\n%s", line, generated)
		}
		if l := strings.Replace(line, "COPY ", "COPY dist/", 1); !strings.Contains(oursText, l+"\n") {
			t.Errorf("deploy/dataflow/Dockerfile lacks %q, which gcloud's has", l)
		}
	}
}

// TestDeployKubernetesArtifactStaging checks where the Kubernetes manifests' Beam
// job servers stage the worker binary. The task managers (Flink) or
// executors (Spark), in other pods, read it from there to serve it to the
// SDK workers, so a pod-local path (the default /tmp, an emptyDir) cannot
// work, and a volume shared between pods must be ReadWriteMany, which the
// default storage classes of GKE and EKS do not provide. So each job
// server's --artifacts-dir must be a bucket (gs://, s3://), or on a
// ReadWriteMany claim that names its storage class (Filestore, EFS); and no
// manifest may claim a ReadWriteMany volume of the default class.
func TestDeployKubernetesArtifactStaging(t *testing.T) {
	type claim struct {
		rwx   bool
		class string
	}
	claims := map[string]claim{}
	var docs []deployDoc
	for _, d := range parseDeployFiles(t) {
		if !strings.Contains(d.file, "/k8s/") {
			continue
		}
		docs = append(docs, d)
		m, _ := d.doc.(map[string]any)
		if m["kind"] != "PersistentVolumeClaim" {
			continue
		}
		var pvc struct {
			Metadata struct{ Name string }
			Spec     struct {
				AccessModes      []string `json:"accessModes"`
				StorageClassName string   `json:"storageClassName"`
			}
		}
		remarshal(t, d, &pvc)
		c := claim{slices.Contains(pvc.Spec.AccessModes, "ReadWriteMany"), pvc.Spec.StorageClassName}
		claims[pvc.Metadata.Name] = c
		if c.rwx && c.class == "" {
			t.Errorf("%s: claim %s is ReadWriteMany of the default storage class, which GKE's and EKS's defaults do not provide; name a class (Filestore: standard-rwx; EFS: your efs-sc)", d.file, pvc.Metadata.Name)
		}
	}
	jobServers := 0
	for _, d := range docs {
		walk(d.doc, func(pod map[string]any) {
			if _, ok := pod["containers"]; !ok {
				return
			}
			var spec struct {
				Volumes []struct {
					Name string
					PVC  *struct {
						ClaimName string `json:"claimName"`
					} `json:"persistentVolumeClaim"`
				}
				Containers     []k8sContainer
				InitContainers []k8sContainer `json:"initContainers"`
			}
			remarshal(t, deployDoc{d.file, pod}, &spec)
			for _, c := range append(spec.InitContainers, spec.Containers...) {
				if !strings.HasPrefix(c.Image, "apache/beam_") || !strings.Contains(c.Image, "_job_server:") {
					continue
				}
				jobServers++
				dir := "/tmp/beam-artifact-staging" // the job servers' default
				for _, u := range flagArgs(d.file, c.Args) {
					if u.name == "artifacts-dir" {
						dir = u.value
					}
				}
				if strings.HasPrefix(dir, "gs://") || strings.HasPrefix(dir, "s3://") {
					continue
				}
				shared := false
				for _, m := range c.VolumeMounts {
					if dir != m.MountPath && !strings.HasPrefix(dir, strings.TrimSuffix(m.MountPath, "/")+"/") {
						continue
					}
					for _, v := range spec.Volumes {
						if v.Name == m.Name && v.PVC != nil {
							cl, ok := claims[v.PVC.ClaimName]
							shared = ok && cl.rwx && cl.class != ""
						}
					}
				}
				if !shared {
					t.Errorf("%s: job server %s stages artifacts in %s, which the task managers or executors of other pods cannot read; use a gs:// directory or a ReadWriteMany claim of a named storage class", d.file, c.Name, dir)
				}
			}
		})
	}
	if jobServers < 2 {
		t.Errorf("found %d job servers in the Kubernetes manifests, want Flink's and Spark's", jobServers)
	}
}

// k8sContainer is what TestDeployKubernetesArtifactStaging reads of a container.
type k8sContainer struct {
	Name         string
	Image        string
	Args         []string
	VolumeMounts []struct {
		Name      string
		MountPath string `json:"mountPath"`
	} `json:"volumeMounts"`
}
