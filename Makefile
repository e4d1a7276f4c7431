# privamp — build, test, benchmark, lint. Needs only Go (modules come from the
# Go module proxy on first use).
GO      ?= go
BIN     ?= bin/privamp
# staticcheck, pinned, fetched through the Go module proxy on first use.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 20s

.PHONY: all build run test test-short test-python test-python-install bench lint fuzz clean web

all: lint test build

# CGO_ENABLED=0: a static binary. privamp uses no cgo, but cobra's flag
# package links net, which with cgo on makes the binary load libc through the
# dynamic linker at every start: about 1.5 ms, a third of `privamp version`
# (BENCHMARKS.md, "Start-up, third pass"). -tags minimal: gonum/plot without
# its PDF, EPS and TeX writers, which privamp never offers.
build:
	CGO_ENABLED=0 $(GO) build -tags minimal -ldflags "-X main.commit=$$(git rev-parse HEAD 2>/dev/null)" -o $(BIN) ./cmd/privamp

# privamp's main job with embedded defaults.
run:
	$(GO) run ./cmd/privamp

# The test command of the README and of .ci/run: gofmt, go vet, staticcheck, every test
# (fuzz targets run their seed corpora as regression tests). The longest package
# (composition, about 2 minutes of CPU on a quiet machine) can exceed go test's
# default 10-minute timeout per package on a heavily loaded one: 30 minutes.
test: lint
	$(GO) test -count=1 -timeout 30m ./...
	$(MAKE) test-python

# A Python with pytest (Debian's python3-pytest, which .ci/run installs, may sit
# beside another python3 on PATH).
PYTHON ?= $(shell for p in python3 /usr/bin/python3; do $$p -c 'import pytest' 2>/dev/null && { echo $$p; exit 0; }; done; echo python3)

# The Python package (python/): the shared library (cgo, needs gcc) and the CLI
# built into bin/, then pytest compares every Python answer with the CLI's JSON.
# The rest of privamp must stay cgo-free: CGO_ENABLED=0 go build ./... is checked.
# About 15 s with a warm Go build cache (the first c-shared build compiles the
# runtime for cgo: a minute or more).
test-python:
	CGO_ENABLED=0 $(GO) build ./...
	$(GO) vet ./python/_native
	$(GO) build -buildmode=c-shared -o bin/libprivamp.so ./python/_native
	$(GO) build -o bin/privamp-pytest ./cmd/privamp
	PRIVAMP_LIBRARY=$(CURDIR)/bin/libprivamp.so PRIVAMP_CLI=$(CURDIR)/bin/privamp-pytest $(PYTHON) -m pytest -q -p no:cacheprovider python/tests

# pip install ./python into a fresh virtual environment with no package index,
# then the README's Python example (not part of make test: a wheel build).
test-python-install:
	PRIVAMP_PIP_TEST=1 $(PYTHON) -m pytest -q -p no:cacheprovider python/tests/test_install.py

test-short:
	$(GO) test -count=1 -short ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./web/wasm
	$(STATICCHECK) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Short coverage-guided fuzzing of every fuzz target (not part of `make test`).
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

# The planning page (issue 29): index.html, app.js, worker.js, privamp.wasm and
# the toolchain's wasm_exec.js in web/dist; serve that folder with any static
# file server (python3 -m http.server -d web/dist) and open it.
web:
	GO=$(GO) $(GO) run ./web/build -o web/dist

clean:
	rm -rf bin web/dist
