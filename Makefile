# neardup: make run (sample), make test (everything CI runs), make bench.
GO      ?= go
INPUT   ?= testdata/sample/simplewiki-sample.xml
OUTPUT  ?= out/sample
FLAGS   ?=
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: run test vet lint fmt-check fuzz bench clean

## run: find near-duplicate sentences in INPUT (default: the sample) and write them to OUTPUT
run:
	$(GO) run -ldflags '$(LDFLAGS)' ./pipelines/sentences --input '$(INPUT)' --output '$(OUTPUT)' $(FLAGS)

## test: formatting, vet, staticcheck, and every test (unit, Prism pipeline, golden end-to-end on ../shared/data)
test: fmt-check vet lint
	$(GO) test -count=1 -timeout 20m ./...

vet:
	$(GO) vet ./...

# staticcheck is pinned as a tool in go.mod.
lint:
	$(GO) tool staticcheck ./...

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

## bench: Go benchmarks of every stage
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf out
