package main

// Running as a Dataflow Flex Template.

import (
	"flag"
	"fmt"
)

// flexBinaryEnv is the variable through which a Dataflow Flex Template
// image names the Go binary its launcher runs (gcloud dataflow
// flex-template build --env FLEX_TEMPLATE_GO_BINARY=…).
const flexBinaryEnv = "FLEX_TEMPLATE_GO_BINARY"

// flexDefaults makes the launching binary the workers' binary when it runs
// inside a Flex Template launcher: if getenv(FLEX_TEMPLATE_GO_BINARY) names
// a binary and --worker_binary was not given, it sets --worker_binary in fs
// to that path. The release binary is linux/amd64, as Dataflow's workers
// are; without --worker_binary Beam would try to compile the pipeline from
// source at launch time, which a template image cannot do. So the template
// needs no worker_binary parameter, and a launch request cannot get it
// wrong.
func flexDefaults(getenv func(string) string, fs *flag.FlagSet) error {
	binary := getenv(flexBinaryEnv)
	if binary == "" {
		return nil
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "worker_binary" })
	if given {
		return nil
	}
	if err := fs.Set("worker_binary", binary); err != nil {
		return fmt.Errorf("%s=%s: setting --worker_binary: %w", flexBinaryEnv, binary, err)
	}
	return nil
}
