package launcher

// The command line the pipelines' commands share: --help with the
// pipeline's own flags by group and the most used Beam flags, --help_beam
// with all of Beam's, unknown flags named with the nearest known one, and
// errors that end the command with status 2 (the command line) or 1 (the
// run).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/neardup/neardup/transforms/verify"
)

// FlagGroup is a titled group of a pipeline's own flags, as --help lists
// them.
type FlagGroup struct {
	Title string
	Names []string
}

// BeamFlag is a Beam flag --help lists, with what it means for the
// pipelines.
type BeamFlag struct {
	Name, Usage string
}

// CommonBeamFlags are the Beam flags --help lists, with what they mean
// here (Beam's own texts say "(required)" of flags only some runners
// need); --help_beam lists all with Beam's texts.
var CommonBeamFlags = []BeamFlag{
	{"runner", "where the pipeline runs: prism (Beam's embedded runner, in this process), direct, flink, spark, dataflow, universal (or portable: any Beam job server)"},
	{"endpoint", "flink, spark, universal (required): the job server, HOST:PORT; prism: use a separate Prism job server"},
	{"environment_type", "flink, spark, universal, prism: where the workers run: LOOPBACK (in this process), EXTERNAL (a worker pool at --environment_config), DOCKER or PROCESS"},
	{"environment_config", "EXTERNAL: the worker pool's HOST:PORT as the runner sees it; DOCKER: the image; PROCESS: the command, as JSON"},
	{"worker_binary", "flink, spark, dataflow: this binary built for the workers (linux/amd64), when this one is not"},
	{"job_name", "the job's name on the cluster"},
	{"async", "cluster runners: submit the job and return without waiting for it"},
	{"project", "dataflow (required): the Google Cloud project"},
	{"region", "dataflow (required): the region to run in"},
	{"staging_location", "dataflow (required): gs:// directory for the worker binary and job files"},
	{"temp_location", "dataflow: gs:// directory for temporary files"},
	{"dry_run", "dataflow: build, check and print the job without submitting it"},
	{"template_location", "dataflow: write the job as a template to this gs:// path instead of running it"},
}

// HelpBeam is the argument that lists every Beam flag. It is not a flag
// (a Dataflow template would have to declare it): Parse looks for it
// before parsing.
const HelpBeam = "help_beam"

// ErrHelp is what Parse returns after printing --help or --help_beam: the
// command ends with status 0.
var ErrHelp = errors.New("help printed")

// CLI is a pipeline command's command line.
type CLI struct {
	// Program is the command's name, as its messages and --help name it.
	Program string
	// Header starts --help: the usage line, what the command does and
	// examples.
	Header string
	// Groups are the pipeline's own flags, in the order --help lists them.
	Groups []FlagGroup
	// BeamFlags are the Beam flags --help lists (nil: CommonBeamFlags).
	BeamFlags []BeamFlag
	// ArgFlag is the flag a stray positional argument is likely meant for
	// ("input": "--input X?"); "" suggests none.
	ArgFlag string
	// FlagSet holds the flags, the pipeline's and Beam's (nil:
	// flag.CommandLine).
	FlagSet *flag.FlagSet
	// Stdout receives --help and --help_beam, Stderr the errors of Exit
	// (nil: os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer
}

func (c *CLI) flags() *flag.FlagSet {
	if c.FlagSet != nil {
		return c.FlagSet
	}
	return flag.CommandLine
}

func (c *CLI) beamFlagList() []BeamFlag {
	if c.BeamFlags != nil {
		return c.BeamFlags
	}
	return CommonBeamFlags
}

func orDefault(w, def io.Writer) io.Writer {
	if w != nil {
		return w
	}
	return def
}

// PipelineFlag reports whether name is one of the pipeline's own flags.
func (c *CLI) PipelineFlag(name string) bool {
	for _, g := range c.Groups {
		if slices.Contains(g.Names, name) {
			return true
		}
	}
	return false
}

// PrintUsage writes --help: the header, the pipeline's flags by group and
// the most used Beam flags.
func (c *CLI) PrintUsage(w io.Writer) {
	fs := c.flags()
	fmt.Fprint(w, c.Header)
	for _, g := range c.Groups {
		fmt.Fprintf(w, "\n%s:\n", g.Title)
		for _, name := range g.Names {
			if f := fs.Lookup(name); f != nil {
				printFlag(w, f)
			}
		}
	}
	fmt.Fprintf(w, "\nBeam runner flags (the most used; the pipeline runs on Beam's embedded Prism runner unless --runner says otherwise):\n")
	for _, b := range c.beamFlagList() {
		if f := fs.Lookup(b.Name); f != nil {
			g := *f
			g.Usage = b.Usage
			printFlag(w, &g)
		}
	}
	fmt.Fprintf(w, "\n'%s --%s' lists all %d of Beam's flags; docs/runners.md and deploy/ say which each runner needs.\n", c.Program, HelpBeam, len(c.beamFlags()))
}

// PrintBeamUsage writes every Beam flag (--help_beam).
func (c *CLI) PrintBeamUsage(w io.Writer) {
	fmt.Fprintf(w, "Beam runner flags (each runner reads its own; '(required)' means required by that runner):\n")
	for _, f := range c.beamFlags() {
		printFlag(w, f)
	}
}

// beamFlags are the flags that are not the pipeline's own: Beam's and its
// runners'.
func (c *CLI) beamFlags() []*flag.Flag {
	var fs []*flag.Flag
	c.flags().VisitAll(func(f *flag.Flag) {
		if !c.PipelineFlag(f.Name) && !strings.HasPrefix(f.Name, "test.") {
			fs = append(fs, f)
		}
	})
	return fs
}

// printFlag writes one flag as flag.PrintDefaults does.
func printFlag(w io.Writer, f *flag.Flag) {
	var b strings.Builder
	fmt.Fprintf(&b, "  -%s", f.Name)
	name, usage := flag.UnquoteUsage(f)
	if name != "" {
		b.WriteString(" " + name)
	}
	b.WriteString("\n    \t")
	b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
	switch {
	case name == "string" && f.DefValue != "":
		fmt.Fprintf(&b, " (default %q)", f.DefValue)
	case name != "string" && f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false":
		fmt.Fprintf(&b, " (default %v)", f.DefValue)
	}
	fmt.Fprintln(w, b.String())
}

// ExitError is an error with the command's exit status: 2 for a mistake on
// the command line, 1 for a failed run.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// UsageError is a mistake on the command line (exit status 2).
func UsageError(format string, args ...any) error {
	return &ExitError{2, fmt.Errorf(format, args...)}
}

// Usage makes err a mistake on the command line (exit status 2); nil stays
// nil.
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{2, err}
}

// Exit ends the command: status 0 for a nil error; a command-line mistake
// or failure is printed to Stderr as "PROGRAM: error: …" (unknown flags,
// already phrased, as they are) with status 2 or 1.
func (c *CLI) Exit(err error) {
	if err == nil {
		os.Exit(0)
	}
	os.Exit(c.Report(err))
}

// Report prints err as Exit does and returns the exit status.
func (c *CLI) Report(err error) int {
	code := 1
	var e *ExitError
	if errors.As(err, &e) {
		code = e.Code
	}
	w := orDefault(c.Stderr, os.Stderr)
	var u *UnknownFlagError
	if errors.As(err, &u) {
		fmt.Fprintln(w, c.Program+":", err)
	} else {
		fmt.Fprintln(w, c.Program+": error:", err)
	}
	return code
}

// UnknownFlagError is a flag that neither the pipeline nor Beam defines.
type UnknownFlagError struct {
	Program    string
	Name       string
	Suggestion string // the nearest known flag, or ""
}

func (e *UnknownFlagError) Error() string {
	if e.Suggestion != "" {
		return fmt.Sprintf("unknown flag --%s; did you mean --%s?", e.Name, e.Suggestion)
	}
	return fmt.Sprintf("unknown flag --%s ('%s --help' lists the flags)", e.Name, e.Program)
}

// Parse parses args (the command line without the program) into the
// FlagSet. It returns ErrHelp after printing --help or --help_beam, and an
// *ExitError (status 2) for an unknown flag, naming the nearest known one,
// a bad value or a positional argument, without the whole usage.
func (c *CLI) Parse(args []string) error {
	stdout := orDefault(c.Stdout, os.Stdout)
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.TrimLeft(a, "-") == HelpBeam && strings.HasPrefix(a, "-") {
			c.PrintBeamUsage(stdout)
			return ErrHelp
		}
	}
	fs := c.flags()
	fs.Init(c.Program, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the flag package's messages and usage: ours are below
	err := fs.Parse(args)
	fs.SetOutput(nil)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		c.PrintUsage(stdout)
		return ErrHelp
	default:
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			name = strings.TrimLeft(name, "-")
			return &ExitError{2, &UnknownFlagError{c.Program, name, c.NearestFlag(name)}}
		}
		return &ExitError{2, fmt.Errorf("%v ('%s --help' lists the flags)", err, c.Program)}
	}
	if fs.NArg() > 0 {
		if c.ArgFlag != "" {
			return UsageError("unexpected argument %q: the command takes only flags (--%s %q?)", fs.Arg(0), c.ArgFlag, fs.Arg(0))
		}
		return UsageError("unexpected argument %q: the command takes only flags ('%s --help' lists them)", fs.Arg(0), c.Program)
	}
	return nil
}

// NearestFlag returns the defined flag (or help_beam) nearest to name by
// edit distance, if it is near enough to be a typo.
func (c *CLI) NearestFlag(name string) string {
	names := []string{HelpBeam}
	c.flags().VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			names = append(names, f.Name)
		}
	})
	return Nearest(name, names)
}

// Nearest returns the candidate nearest to s by edit distance, ignoring
// case (the first of equals), or "" if even that one differs in more than
// a third of s's characters (at least 2 edits are always allowed).
func Nearest(s string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		if d := verify.EditDistance([]rune(strings.ToLower(s)), []rune(strings.ToLower(c)), -1); best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist > max(2, len([]rune(s))/3) {
		return ""
	}
	return best
}

// KnownRunners are the canonical runner names, as error messages list them.
var KnownRunners = []string{"prism", "direct", "flink", "spark", "dataflow", "universal", "portable", "dot"}

// CanonicalRunner returns the canonical name of a runner Beam Go knows, or
// a usage error suggesting the nearest one. Beam itself would only exit
// with "Runner X not registered. Forgot to _ import it?" once the pipeline
// is built.
func CanonicalRunner(runner string) (string, error) {
	if c, ok := RunnerAliases[runner]; ok {
		return c, nil
	}
	hint := ""
	if n := Nearest(runner, KnownRunners); n != "" {
		hint = fmt.Sprintf("did you mean --runner=%s? ", n)
	}
	return "", UsageError("unknown runner %q; %sBeam Go's runners are %s", runner, hint, strings.Join(KnownRunners, ", "))
}
