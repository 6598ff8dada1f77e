# flightalliance — see README.md.
GO        ?= go
BIN       := bin
STATICCHECK_VERSION := v0.8.2
# The short test run CI uses; `make test-long` and `make chaos` run the long variants.
TEST_FLAGS ?= -timeout 20m

.PHONY: build test test-long lint bench run chaos clean

build:
	$(GO) build -o $(BIN)/ ./cmd/... ./scripts/alliancectl

test: build
	$(GO) test $(TEST_FLAGS) ./...

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Builds, generates sample data, starts a search server on 127.0.0.1:8080 and a 3-machine
# alliance, waits until a search answers complete, prints what to try. Ctrl-C stops it all.
run: build
	$(BIN)/alliancectl run --bin $(BIN)

clean:
	rm -rf $(BIN) var
