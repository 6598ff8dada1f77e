# flightalliance — see README.md.
GO        ?= go
BIN       := bin
STATICCHECK_VERSION := v0.8.2
# The test run CI uses (it includes a 20-second chaos run); `make chaos` runs a long one.
TEST_FLAGS ?= -timeout 20m
CHAOS ?= 5m
CHAOS_REPLICAS ?= 3

.PHONY: build deps test test-unit test-e2e test-robustness lint bench run chaos clean image cluster cluster-down

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# Debian's packages the tests use, installed when missing: python3-zeep, the third-party WSDL
# toolkit of the SOAP interoperability tests (run by Debian's /usr/bin/python3), and chromium,
# the browser of the web console's test (driven by chromedp), and docker-compose, which runs
# deploy/compose (the container suite; the Docker engine itself is the machine's).
DEB_PKGS := python3-zeep chromium docker-compose
deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing" $$missing "(apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi

# The tests by kind. Unit tests start no process: every package but integration/, with
# alliancectl's unit tests (its end-to-end tests, TestEndToEnd*, skip under -short; no other
# unit test looks at -short), under the race detector. The process suites (integration/,
# alliancectl's end to end) run without it and never from go test's cache: they run the binaries,
# whose changes the cache does not see (alliancectl's tests import little of what the airline
# server is made of). Of integration/, the robustness tests are the long chaos run and the
# bookings' linearizability under faults (checked with porcupine); the rest are end to end.
# The container suite (TestCluster): deploy/compose's alliance in real containers, from images
# it builds.
UNIT_PKGS = $(shell $(GO) list ./... | grep -v -e /integration)
ROBUSTNESS_TESTS := TestChaos$$|TestBookingsLinearizable$$
CLUSTER_TEST     := TestCluster$$
E2E_ALLIANCECTL  := ^TestEndToEnd

test-unit: deps
	$(GO) test $(TEST_FLAGS) -race -short $(UNIT_PKGS)

# $(call process_suites,GO-TEST-FLAGS): integration/'s tests that GO-TEST-FLAGS select, and beside
# them alliancectl's end to end. The two run side by side, each picking its servers' ports from
# its own part of the range (FA_PORTS, see internal/freeport): one must not take the port of the
# other's machine while it is down, killed for a restart.
define process_suites
FA_PORTS=10000-21999 $(GO) test -count=1 $(TEST_FLAGS) $(1) ./integration/ & integration=$$!; \
FA_PORTS=22000-32000 $(GO) test -count=1 $(TEST_FLAGS) -run '$(E2E_ALLIANCECTL)' ./cmd/alliancectl/ & alliancectl=$$!; \
wait $$integration; i=$$?; wait $$alliancectl; a=$$?; test $$i -eq 0 && test $$a -eq 0
endef

test-e2e: build deps
	$(call process_suites,-skip '$(CLUSTER_TEST)|$(ROBUSTNESS_TESTS)')

test-robustness: build
	FA_PORTS=10000-32000 $(GO) test -count=1 $(TEST_FLAGS) -run '$(ROBUSTNESS_TESTS)' ./integration/

# make test (what CI runs): the unit tests; then the end-to-end and robustness tests of
# integration/ in one run, beside alliancectl's end to end; last, alone, the container suite.
test: build deps test-unit
	$(call process_suites,-skip '$(CLUSTER_TEST)')
	FA_PORTS=10000-32000 $(GO) test -count=1 $(TEST_FLAGS) -run '$(CLUSTER_TEST)' -v ./integration/

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

# The container image: the four binaries, static and built with no path or build id, on an empty
# base (FROM scratch: nothing is pulled), run as user 65532. IMAGE names it; flightalliance:latest
# is tagged too when IMAGE is the default.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
IMAGE   ?= flightalliance:$(VERSION)
IMAGE_DIR := var/image
image:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w -buildid=' -o $(IMAGE_DIR)/bin/ ./cmd/...
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || echo 0) deploy/image/rootfs.sh $(IMAGE_DIR)/context/rootfs $(IMAGE_DIR)/bin
	cp deploy/image/Dockerfile $(IMAGE_DIR)/context/Dockerfile
	DOCKER_BUILDKIT=0 docker build -q --build-arg VERSION=$(VERSION) \
		--build-arg REVISION=$$(git rev-parse HEAD 2>/dev/null || echo unknown) -t $(IMAGE) $(IMAGE_DIR)/context \
		>$(IMAGE_DIR)/build.log 2>&1 || { cat $(IMAGE_DIR)/build.log; exit 1; }
	@if [ "$(IMAGE)" = "flightalliance:$(VERSION)" ]; then docker tag $(IMAGE) flightalliance:latest; fi
	@echo "built $(IMAGE): $$(docker image inspect -f '{{.Size}}' $(IMAGE)) bytes"

# A test bed of real containers: deploy/compose's alliance (m1 m2 m3 and a search server, TLS and a
# token), its keys and data under var/cluster (kept between runs). The search server is published
# on https://127.0.0.1:8443 (CA var/cluster/keys/ca.crt). `make cluster-down` removes everything it made.
CLUSTER_DIR := var/cluster
COMPOSE     := docker-compose -f deploy/compose/docker-compose.yml -p flightalliance
cluster: image build
	$(BIN)/alliancectl keys --out $(CLUSTER_DIR)/keys --alliances star --machines 4 \
		--host m1=m1 --host m2=m2 --host m3=m3 --host m4=m4 --host search=search,localhost,127.0.0.1 >/dev/null
	@test -f $(CLUSTER_DIR)/data/LY.csv || $(BIN)/flights generate --sellers LY,UA,LH --from 2026-12-01 --days 7 --per-day 20 --seed 1 --out $(CLUSTER_DIR)/data
	@# The containers run as user 65532: their keys are its own (mode 0600), the data readable.
	@if [ "$$(id -u)" = 0 ]; then chown -R 65532:65532 $(CLUSTER_DIR)/keys/hosts; chmod -R a+rX $(CLUSTER_DIR)/data; \
	else echo "as root: chown -R 65532:65532 $(CLUSTER_DIR)/keys/hosts (the containers' user reads its keys)"; exit 1; fi
	FA_IMAGE=flightalliance:latest $(COMPOSE) up -d
	@echo "waiting (3 minutes at most) for a complete answer through https://127.0.0.1:8443"
	@i=0; until $(BIN)/flights search --server https://127.0.0.1:8443 --ca $(CLUSTER_DIR)/keys/ca.crt \
			--from DEN --to AMS --date 2026-12-01 --timeout 5s >/dev/null 2>&1; do \
		i=$$((i+1)); if [ $$i -ge 180 ]; then echo "no complete answer in 3 minutes"; $(COMPOSE) ps; exit 1; fi; sleep 1; done
	@echo "the cluster answers complete: https://127.0.0.1:8443 (CA $(CLUSTER_DIR)/keys/ca.crt)"
	@echo "  $(BIN)/flights search --server https://127.0.0.1:8443 --ca $(CLUSTER_DIR)/keys/ca.crt --from DEN --to AMS --date 2026-12-01"
	@echo "  $(BIN)/alliancectl status --search https://127.0.0.1:8443 --keys $(CLUSTER_DIR)/keys/hosts/alliancectl"
	@echo "  $(COMPOSE) ps | logs m1 | kill m2 | start m2;  make cluster-down removes it all"

cluster-down:
	$(COMPOSE) --profile spare down -v --remove-orphans --timeout 60
	@echo "removed the cluster's containers, network and volumes (its keys and data stay in $(CLUSTER_DIR))"

