# privamp — build, test, benchmark, lint. Needs only Go (modules come from the
# Go module proxy on first use).
GO      ?= go
BIN     ?= bin/privamp
# staticcheck, pinned, fetched through the Go module proxy on first use.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 20s

.PHONY: all build run test test-short bench lint fuzz clean web

all: lint test build

build:
	$(GO) build -tags minimal -ldflags "-X main.commit=$$(git rev-parse HEAD 2>/dev/null)" -o $(BIN) ./cmd/privamp

# privamp's main job with embedded defaults.
run:
	$(GO) run ./cmd/privamp

# The test command of the README and of .ci/run: gofmt, go vet, staticcheck, every test
# (fuzz targets run their seed corpora as regression tests). The longest package
# (composition, about 2 minutes of CPU on a quiet machine) can exceed go test's
# default 10-minute timeout per package on a heavily loaded one: 30 minutes.
test: lint
	$(GO) test -count=1 -timeout 30m ./...

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
