# flightalliance — see README.md.
GO        ?= go
BIN       := bin
STATICCHECK_VERSION := v0.8.2
# The short test run CI uses; `make test-long` and `make chaos` run the long variants.
TEST_FLAGS ?= -timeout 20m

.PHONY: build test test-long lint bench run chaos clean

build:
	$(GO) build -o $(BIN)/ ./cmd/...

test: build
	$(GO) test $(TEST_FLAGS) ./...

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

run: build
	@echo "make run: the airline server is not wired yet (see issue 4); it will start a search server and a 3-machine alliance."

clean:
	rm -rf $(BIN) var
