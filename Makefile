# neardup: make help (this list), make run (sample), make test (everything CI runs), make bench.
GO      ?= go
INPUT   ?= testdata/sample/simplewiki-sample.xml
OUTPUT  ?= out/sample
FLAGS   ?=
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# bash, for pipefail in test.
SHELL   := bash

.PHONY: help run run-reuse test race vet lint fmt-check fuzz fuzz-smoke bench bench-scale bench-go clean release template

## help: list the targets, each with what it does (the default goal: plain make does this)
help:
	@awk 'match($$0, /^## [a-z-]+: /) { printf "  %-12s %s\n", substr($$0, 4, RLENGTH - 5), substr($$0, RLENGTH + 1) }' $(firstword $(MAKEFILE_LIST))

## run: find near-duplicate sentences in INPUT (default: the sample) and write them to OUTPUT
run:
	$(GO) run -ldflags '$(LDFLAGS)' ./pipelines/sentences --input '$(INPUT)' --output '$(OUTPUT)' $(FLAGS)
	@echo "explore the clusters: $(GO) run ./explore --run '$(OUTPUT)'   (its latest run; then open the URL it prints)"

## run-reuse: find where the web pages of WEB (default: the WARC samples in ../shared/data) copy the Wikipedia dumps of WIKI
WIKI    ?= ../shared/data/wikiduper/Katrina.xml,../shared/data/dbpedia-minidumps/enwiki-minidump.xml.bz2
WEB     ?= ../shared/data/commoncrawl-warc/*.warc.gz
run-reuse:
	$(GO) run -ldflags '$(LDFLAGS)' ./pipelines/reuse --wiki '$(WIKI)' --web '$(WEB)' --output '$(OUTPUT)' $(FLAGS)

## test: formatting, vet, staticcheck, every test (unit, Prism pipeline, golden end-to-end on ../shared/data), and the race detector on the concurrent code
## testkit/cmd/testsummary prints a line per package, failures in full, and how many tests passed, failed and skipped, the skips by reason
## (tests that need ../shared skip without it); pipefail keeps go test's own exit status. PKGS=./io/... tests fewer packages.
PKGS ?= ./...
test: fmt-check vet lint
	set -o pipefail; $(GO) test -json -count=1 -timeout 20m $(PKGS) | $(GO) run ./testkit/cmd/testsummary
	$(MAKE) race

## race: the race detector on the DoFns' worker pools, the read-ahead decompressor and a whole pipeline run on one and four cores
race:
	$(GO) test -race -count=1 ./internal/orderedpool
	$(GO) test -race -count=1 -run 'Readahead' ./io/dump
	$(GO) test -race -count=1 -run 'TestDeterministic|TestMultistream' ./pipelines/sentences

## vet: go vet on every package
vet:
	$(GO) vet ./...

## lint: staticcheck on every package (pinned as a tool in go.mod)
lint:
	$(GO) tool staticcheck ./...

## fmt-check: list the Go files gofmt would change, and fail if there are any
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## fuzz: run every fuzz target for FUZZTIME each (default 10s)
FUZZTIME ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## fuzz-smoke: a few seconds of each parser's fuzz target, as CI runs it
## Counts, not durations: a duration -fuzztime can fail with a spurious "context deadline exceeded" in Go 1.26 (golang/go#75804).
fuzz-smoke:
	$(GO) test ./io/dump -run '^$$' -fuzz '^FuzzReader$$' -fuzztime 5000x
	$(GO) test ./io/dump -run '^$$' -fuzz '^FuzzSite$$' -fuzztime 5000x
	$(GO) test ./io/text -run '^$$' -fuzz '^FuzzJSONL$$' -fuzztime 10000x
	$(GO) test ./io/warc -run '^$$' -fuzz '^FuzzReader$$' -fuzztime 5000x
	$(GO) test ./transforms/wikitext -run '^$$' -fuzz '^FuzzClean$$' -fuzztime 10000x
	$(GO) test ./transforms/sentence -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime 20000x
	$(GO) test ./transforms/shingle -run '^$$' -fuzz '^FuzzHashes$$' -fuzztime 50000x
	$(GO) test ./io/htmltext -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime 5000x

## bench: end to end on ../shared/data, a 1–8× scaled corpus and a 103 MB JSON-lines corpus, with decompression and minhash-lsh baselines, the passage stage's cost and the six candidate schemes compared (~11 min)
bench:
	$(GO) run ./bench/cmd/bench $(BENCHFLAGS)

## bench-scale: the scale targets alone: scaled corpora 8×–64× as .xml and multistream .bz2, time and peak RSS per in-window sentence, pipeline ÷ bzip2 -dc (~10 min)
bench-scale:
	$(GO) run ./bench/cmd/bench -sizes 8,16,32,64 -peer_sizes '' -jsonl_copies 0 -passage_pairs 0 -format_pairs 0 -schemes '' $(BENCHFLAGS)

## bench-go: Go benchmarks of every stage
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## release: versioned, reproducible binaries of sentences, reuse and explore (linux/amd64, linux/arm64, darwin/arm64, darwin/amd64) and SHA256SUMS in dist/
release:
	VERSION='$(VERSION)' COMMIT='$(COMMIT)' GO='$(GO)' scripts/release.sh

## template: build (on Cloud Build) and register the Dataflow Flex Template (PROJECT=… REGION=… BUCKET=…; needs gcloud, no Docker)
template:
	VERSION='$(VERSION)' scripts/template.sh

## clean: remove out/ (the runs of make run) and dist/ (the release binaries)
clean:
	rm -rf out dist
