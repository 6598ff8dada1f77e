# flightalliance — see README.md.
GO        ?= go
BIN       := bin
STATICCHECK_VERSION := v0.8.2
# The test run CI uses (it includes a 20-second chaos run); `make chaos` runs a long one.
TEST_FLAGS ?= -timeout 20m
CHAOS ?= 5m
CHAOS_REPLICAS ?= 3

.PHONY: build deps test lint bench run chaos clean

build:
	$(GO) build -o $(BIN)/ ./cmd/... ./scripts/alliancectl

# Debian's packages the tests use, installed when missing: python3-zeep, the third-party WSDL
# toolkit of the SOAP interoperability tests (run by Debian's /usr/bin/python3), and chromium,
# the browser of the web console's test (driven by chromedp).
DEB_PKGS := python3-zeep chromium
deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing" $$missing "(apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi

# make test: the unit packages under the race detector, then the tests that start real
# processes (integration/, alliancectl's end to end) without it, never from go test's cache: they
# run the binaries, whose changes the cache does not see (alliancectl's tests import little of
# what the airline server is made of). The two run side by side, each picking its servers'
# ports from its own part of the range (FA_PORTS, see internal/freeport): one must not take the
# port of the other's machine while it is down, killed for a restart.
UNIT_PKGS = $(shell $(GO) list ./... | grep -v -e /integration -e /scripts/alliancectl)

test: build deps
	$(GO) test $(TEST_FLAGS) -race $(UNIT_PKGS)
	FA_PORTS=10000-21999 $(GO) test -count=1 $(TEST_FLAGS) ./integration/ & integration=$$!; \
	FA_PORTS=22000-32000 $(GO) test -count=1 $(TEST_FLAGS) ./scripts/alliancectl/ & alliancectl=$$!; \
	wait $$integration; i=$$?; wait $$alliancectl; a=$$?; test $$i -eq 0 && test $$a -eq 0

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# Micro-benchmarks of every package, then the process-level ones (real alliances; one fixed
# workload each, reported as custom metrics).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list ./... | grep -v /integration)
	$(GO) test -run '^$$' -bench . -benchtime=1x ./integration/

# Builds, generates sample data, starts a search server on https://127.0.0.1:8080 and a
# 3-machine alliance, waits until a search answers complete, prints what to try. Ctrl-C stops it
# all. Locked down by default: TLS and a token per alliance, with the keys `alliancectl keys`
# makes in var/run/keys (reused when there). `make run RUN_FLAGS=--insecure` runs open over HTTP.
run: build
	$(BIN)/alliancectl run --bin $(BIN) $(RUN_FLAGS)

# A long chaos run: random kill/restart/pause/partition of a 5-machine alliance under steady
# search load for $(CHAOS), then heal and check; then $(CHAOS) of bookings by concurrent clients
# on a 3-machine alliance under the same kinds of faults, the history checked for
# linearizability with porcupine. FA_CHAOS_SEED=N replays a run's fault sequence; the search half
# runs with CHAOS_REPLICAS copies of every seller (3: not one answer may be incomplete).
chaos: build
	FA_CHAOS=$(CHAOS) FA_CHAOS_REPLICAS=$(CHAOS_REPLICAS) FA_CHAOS_STRICT=1 $(GO) test -count=1 -timeout 60m -run 'TestChaos$$' -v ./integration/
	FA_BOOKING_CHAOS=$(CHAOS) $(GO) test -count=1 -timeout 60m -run 'TestBookingsLinearizable$$' -v ./integration/

clean:
	rm -rf $(BIN) var
