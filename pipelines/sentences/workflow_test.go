package main

// A reader of deploy/dataflow/scheduler/workflow.yaml: it runs the
// workflow's steps at a given time without Google Cloud, evaluating the
// little of the Workflows expression language the file uses, and records
// the HTTP calls it would make.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// workflowFile is the scheduler's workflow, relative to the repository root.
const workflowFile = "deploy/dataflow/scheduler/workflow.yaml"

// workflowCall is an HTTP call of a workflow, with its arguments evaluated.
type workflowCall struct {
	step, call string
	args       map[string]any
}

// runWorkflow evaluates the steps of a workflow's main block as they would
// run at now, every call succeeding, and returns its variables and calls.
// It fails the test on anything it does not understand, so that the
// workflow cannot grow past what the tests check.
func runWorkflow(t *testing.T, doc any, now time.Time) (map[string]any, []workflowCall) {
	t.Helper()
	root, _ := doc.(map[string]any)
	main, _ := root["main"].(map[string]any)
	steps, _ := main["steps"].([]any)
	if len(steps) == 0 {
		t.Fatalf("%s: no main.steps", workflowFile)
	}
	env := &workflowEnv{vars: map[string]any{}, now: now}
	var calls []workflowCall
	for _, s := range steps {
		named, _ := s.(map[string]any)
		if len(named) != 1 {
			t.Fatalf("%s: step %v is not one named step", workflowFile, s)
		}
		for name, body := range named {
			step, _ := body.(map[string]any)
			for key, v := range step {
				switch key {
				case "assign":
					assigns, _ := v.([]any)
					for _, a := range assigns {
						for variable, expr := range a.(map[string]any) {
							value, err := env.value(expr)
							if err != nil {
								t.Fatalf("%s: step %s: %s: %v", workflowFile, name, variable, err)
							}
							env.vars[variable] = value
						}
					}
				case "call":
					args, err := env.value(step["args"])
					if err != nil {
						t.Fatalf("%s: step %s: %v", workflowFile, name, err)
					}
					m, _ := args.(map[string]any)
					calls = append(calls, workflowCall{name, fmt.Sprint(v), m})
				case "args", "result", "return":
					// A call's arguments (above), and what it or the workflow
					// returns: unknown without Google Cloud.
				default:
					t.Fatalf("%s: step %s: %q is not understood by this test", workflowFile, name, key)
				}
			}
		}
	}
	return env.vars, calls
}

// workflowEnv evaluates expressions with the workflow's variables.
type workflowEnv struct {
	vars map[string]any
	now  time.Time
}

// value evaluates v: a string "${…}" as an expression, maps and lists
// element by element, anything else as it is.
func (e *workflowEnv) value(v any) (any, error) {
	switch v := v.(type) {
	case string:
		if expr, ok := strings.CutPrefix(v, "${"); ok && strings.HasSuffix(expr, "}") {
			return e.expr(strings.TrimSuffix(expr, "}"))
		}
		return v, nil
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			y, err := e.value(x)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			y, err := e.value(x)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return v, nil
}

// expr evaluates sums of string and integer literals, variables and calls
// of sys.now, time.format, text.substring and text.url_encode.
func (e *workflowEnv) expr(src string) (any, error) {
	p := &exprParser{src: src, env: e}
	v, err := p.sum()
	if err != nil {
		return nil, fmt.Errorf("%q: %w", src, err)
	}
	if p.skipSpace(); p.pos < len(p.src) {
		return nil, fmt.Errorf("%q: unexpected %q", src, p.src[p.pos:])
	}
	return v, nil
}

type exprParser struct {
	src string
	pos int
	env *workflowEnv
}

func (p *exprParser) skipSpace() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *exprParser) sum() (any, error) {
	v, err := p.term()
	for err == nil {
		if p.skipSpace(); p.pos == len(p.src) || p.src[p.pos] != '+' {
			break
		}
		p.pos++
		var w any
		if w, err = p.term(); err != nil {
			break
		}
		switch a := v.(type) {
		case string:
			b, ok := w.(string)
			if !ok {
				return nil, fmt.Errorf("string + %T", w)
			}
			v = a + b
		case int:
			b, ok := w.(int)
			if !ok {
				return nil, fmt.Errorf("int + %T", w)
			}
			v = a + b
		default:
			return nil, fmt.Errorf("%T + %T", v, w)
		}
	}
	return v, err
}

func (p *exprParser) term() (any, error) {
	p.skipSpace()
	if p.pos == len(p.src) {
		return nil, fmt.Errorf("missing operand")
	}
	switch c := p.src[p.pos]; {
	case c == '"':
		end := strings.IndexByte(p.src[p.pos+1:], '"')
		if end < 0 {
			return nil, fmt.Errorf("unterminated string")
		}
		s := p.src[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		return s, nil
	case '0' <= c && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
			p.pos++
		}
		return strconv.Atoi(p.src[start:p.pos])
	}
	start := p.pos
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || strings.ContainsRune("_.", rune(p.src[p.pos]))) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" {
		return nil, fmt.Errorf("unexpected %q", p.src[p.pos:])
	}
	if p.pos == len(p.src) || p.src[p.pos] != '(' {
		v, ok := p.env.vars[name]
		if !ok {
			return nil, fmt.Errorf("undefined variable %s", name)
		}
		return v, nil
	}
	p.pos++
	var args []any
	for {
		if p.skipSpace(); p.pos < len(p.src) && p.src[p.pos] == ')' {
			p.pos++
			break
		}
		a, err := p.sum()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.skipSpace(); p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		}
	}
	return p.env.call(name, args)
}

// call runs one of the standard library's functions the workflow uses.
func (e *workflowEnv) call(name string, args []any) (any, error) {
	switch {
	case name == "sys.now" && len(args) == 0:
		return float64(e.now.UnixMicro()) / 1e6, nil
	case name == "time.format" && len(args) == 2 && args[1] == "UTC":
		seconds, ok := args[0].(float64)
		if !ok {
			return nil, fmt.Errorf("%s(%v)", name, args)
		}
		return time.UnixMicro(int64(seconds * 1e6)).UTC().Format("2006-01-02T15:04:05.000000Z"), nil
	case name == "text.substring" && len(args) == 3:
		s, ok := args[0].(string)
		from, ok1 := args[1].(int)
		to, ok2 := args[2].(int)
		if !ok || !ok1 || !ok2 || from < 0 || to < from || to > len(s) {
			return nil, fmt.Errorf("%s(%q)", name, args)
		}
		return s[from:to], nil
	case name == "text.url_encode" && len(args) == 1:
		s, ok := args[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s(%v)", name, args)
		}
		return strings.ReplaceAll(url.QueryEscape(s), "+", "%20"), nil
	default:
		return nil, fmt.Errorf("%s with %d arguments: not a function this test knows", name, len(args))
	}
}

// workflowLaunch runs the scheduler's workflow at now and returns its
// variables and the body of its launch of the Flex Template.
func workflowLaunch(t *testing.T, doc any, now time.Time) (vars map[string]any, launch map[string]any) {
	t.Helper()
	vars, calls := runWorkflow(t, doc, now)
	for _, c := range calls {
		if u, _ := c.args["url"].(string); c.call == "http.post" && strings.HasSuffix(u, "/flexTemplates:launch") {
			body, _ := c.args["body"].(map[string]any)
			launch, _ = body["launchParameter"].(map[string]any)
		}
	}
	if launch == nil {
		t.Fatalf("%s: no http.post to flexTemplates:launch with a launchParameter", workflowFile)
	}
	return vars, launch
}

// TestDeployScheduledRunIDs checks that the scheduled launches name each run
// after the dump it reads, so that a retried launch targets the run
// directory of the first (refused once it holds manifest.json, or while
// another launcher holds it): the Cloud Scheduler workflow, run at several
// times, and the Airflow DAG's dump_date and run_id, imported without
// Airflow.
func TestDeployScheduledRunIDs(t *testing.T) {
	var doc any
	for _, d := range parseDeployFiles(t) {
		if d.file == workflowFile {
			doc = d.doc
		}
	}
	if doc == nil {
		t.Fatalf("%s not found", workflowFile)
	}
	for _, tc := range []struct {
		now  time.Time
		dump string
	}{
		{time.Date(2026, 6, 12, 6, 0, 0, 0, time.UTC), "20260601"},
		{time.Date(2026, 6, 13, 17, 45, 3, 5e8, time.UTC), "20260601"}, // a retry the next day
		{time.Date(2026, 12, 12, 6, 0, 0, 0, time.UTC), "20261201"},
		{time.Date(2027, 1, 31, 23, 59, 59, 0, time.UTC), "20270101"},
	} {
		vars, launch := workflowLaunch(t, doc, tc.now)
		params, _ := launch["parameters"].(map[string]any)
		runID := "enwiki-" + tc.dump
		input, _ := params["input"].(string)
		if params["run_id"] != runID || launch["jobName"] != "neardup-"+runID ||
			!strings.Contains(input, "/dumps/enwiki/"+tc.dump+"/enwiki-"+tc.dump+"-") {
			t.Errorf("at %v: run_id %v, job %v, input %v; want run %s of the dump of %s", tc.now, params["run_id"], launch["jobName"], input, runID, tc.dump)
		}
		if want := "gs://BUCKET/templates/neardup-VERSION.json"; launch["containerSpecGcsPath"] != want {
			t.Errorf("template %v, want %s (scripts/template.sh's)", launch["containerSpecGcsPath"], want)
		}
		_, calls := runWorkflow(t, doc, tc.now)
		if len(calls) != 2 || calls[0].call != "http.get" ||
			calls[0].args["url"] != "https://storage.googleapis.com/storage/v1/b/BUCKET/o/dumps%2Fenwiki%2F"+tc.dump+"%2F_DONE" {
			t.Errorf("at %v: calls %v; want a look for the dump's _DONE object, then the launch", tc.now, calls)
		}
		if vars["dump"] != tc.dump {
			t.Errorf("at %v: dump %v, want %s", tc.now, vars["dump"], tc.dump)
		}
	}

	t.Run("Airflow DAG", func(t *testing.T) {
		python, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 not found")
		}
		const script = `
import datetime, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("neardup_dag", sys.argv[1])
dag = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dag)
out = {"airflow": dag.DAG is not None}
out["dumps"] = [dag.dump_date(datetime.datetime(y, m, d, h, tzinfo=datetime.timezone.utc))
                for y, m, d, h in [(2026, 6, 12, 6), (2026, 6, 13, 18), (2026, 12, 12, 6), (2027, 1, 1, 0)]]
out["run_id"] = dag.run_id("20260601")
try:
    import jinja2
except ImportError:
    jinja2 = None
if jinja2:
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    context = dict(dag.MACROS, data_interval_end=datetime.datetime(2026, 6, 12, 6, tzinfo=datetime.timezone.utc),
                   var={"value": {"neardup_bucket": "b", "neardup_version": "v0.2.0", "neardup_service_account": "sa"}})
    out["options"] = {k: env.from_string(v).render(context) for k, v in dag.PIPELINE_OPTIONS.items()}
json.dump(out, sys.stdout)
`
		out, err := exec.Command(python, "-c", script, filepath.Join("../..", airflowDAG)).Output()
		if err != nil {
			t.Fatalf("importing %s without Airflow: %v\n%s", airflowDAG, err, out)
		}
		var got struct {
			Airflow bool
			Dumps   []string
			RunID   string `json:"run_id"`
			Options map[string]string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if want := []string{"20260601", "20260601", "20261201", "20270101"}; !slices.Equal(got.Dumps, want) || got.RunID != "enwiki-20260601" {
			t.Errorf("dump_date gives %q, run_id(20260601) %q; want %q and enwiki-20260601", got.Dumps, got.RunID, want)
		}
		if got.Options == nil {
			t.Log("jinja2 not installed: PIPELINE_OPTIONS not rendered")
			return
		}
		if got.Options["run_id"] != "enwiki-20260601" ||
			got.Options["input"] != "gs://b/dumps/enwiki/20260601/enwiki-20260601-pages-articles-multistream*.xml*.bz2" {
			t.Errorf("the run of 12 June 2026 renders run_id %q, input %q; want enwiki-20260601 and the dump of 1 June",
				got.Options["run_id"], got.Options["input"])
		}
	})
}

// TestDeploySchedulerJobFlags has gcloud, where it is installed, read the
// Cloud Scheduler job's flags file: without an account it parses the flags
// and stops before calling Google Cloud, so an unknown or malformed flag
// shows as an argument error.
func TestDeploySchedulerJobFlags(t *testing.T) {
	gcloud, err := exec.LookPath("gcloud")
	if err != nil {
		t.Skip("gcloud not found")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gcloud, "scheduler", "jobs", "create", "http", "neardup-enwiki-monthly",
		"--project=my-project", "--flags-file=deploy/dataflow/scheduler/job.yaml")
	cmd.Dir = "../.."
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "CLOUDSDK_CONFIG=" + filepath.Join(dir, "gcloud"),
		"CLOUDSDK_CORE_DISABLE_PROMPTS=1"}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "active account") {
		t.Errorf("gcloud scheduler jobs create http --flags-file=job.yaml: %v, want it to stop for want of an account:\n%s", err, out)
	}
}
