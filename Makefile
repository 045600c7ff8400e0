# Tenure's developer entry points. The README's quick start is `make dev`
# and `make test`; CI (.ci/run) calls `make test` too.

SHELL := /bin/bash
export GOTOOLCHAIN := local

TENURE := bin/tenure
REFERENCE_CONTRACT ?= ../shared/reference/seller-api-1.0.0.openapi.yaml
# The hosted checkout's legal forms, generated from package checkout.
LEGAL_FORMS_JS := web/checkout/assets/legal-forms.js
# The contracts, whose x-tenure-enum lists genenums writes from Go tables.
CONTRACTS := api/openapi/seller.yaml api/openapi/customer.yaml
# The API reference at /docs: its renderer, Swagger UI, is vendored from npm
# at the version web/docs/package.json pins.
DOCS := web/docs
SWAGGER_UI_FILES := swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE
# The console at /console/: htmx is vendored from npm at the version
# web/console/package.json pins.
CONSOLE := web/console

.PHONY: build dev test test-cluster temporal-cli generate check-generated check-format contract-check bench-webhooks bench-catalog bench-offers bench-customer bench-csv bench-risk bench-contracts bench-collections bench-invoices bench-console record-histories vendor-docs vendor-console

## build: compile the tenure command into bin/tenure
build:
	go build -o $(TENURE) ./cmd/tenure

## dev: run Tenure on this machine (sandbox, API, worker, Temporal dev server and UI)
dev: build
	exec ./$(TENURE) dev

## temporal-cli: build the pinned Temporal CLI into .tenure/bin unless it is there
temporal-cli: build
	./$(TENURE) temporal-cli

## test: the whole suite: formatting, vet, generated code, unit and integration tests
test: temporal-cli check-format check-generated
	go vet ./...
	go test -count=1 -timeout 25m ./...

## test-cluster: the split topology on a real Temporal server: the pinned server 1.29.1 on PostgreSQL (built into
## .tenure/bin the first time), two tenure serve and two tenure worker processes, lifecycles and a CSV import while
## a worker is killed; takes minutes
test-cluster: temporal-cli
	TENURE_TEST_CLUSTER=1 go test -count=1 -v -run '^TestSplitTopology$$' -timeout 30m ./internal/testing/clustertest/

## bench-webhooks: webhook latency (commit to receipt, p50/p99 over 1,000 events), retry throughput, and how soon a delivery resumes after its worker is killed, on the real stack
bench-webhooks: temporal-cli
	go test ./domain/webhook -run '^$$' -bench 'BenchmarkWebhook' -benchtime 1x -timeout 30m
	go test ./cmd/tenure -run '^$$' -bench 'BenchmarkWebhookFailover' -benchtime 1x -timeout 10m

## generate: regenerate the sqlc queries, the contracts' enumerations, the Seller and Customer-Facing API servers and the checkout's legal forms
generate:
	go tool sqlc generate
	go run ./api/openapi/genenums $(CONTRACTS)
	go tool oapi-codegen -config api/seller/sellerapi/oapi-codegen.yaml api/openapi/seller.yaml
	go tool oapi-codegen -config api/customer/customerapi/oapi-codegen.yaml api/openapi/customer.yaml
	go run ./web/checkout/genlegalforms -o $(LEGAL_FORMS_JS)

## check-generated: fail when committed generated code differs from what make generate writes
check-generated:
	go tool sqlc diff
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	mkdir $$tmp/contracts && go run ./api/openapi/genenums -o $$tmp/contracts $(CONTRACTS) && \
	for api in seller customer; do \
	diff -q api/openapi/$$api.yaml $$tmp/contracts/$$api.yaml >/dev/null || \
	{ echo "api/openapi/$$api.yaml lists stale enumerations: run make generate and commit the result"; exit 1; }; \
	sed "s#^output: .*#output: $$tmp/$${api}api.gen.go#" api/$${api}/$${api}api/oapi-codegen.yaml > $$tmp/$$api.yaml && \
	go tool oapi-codegen -config $$tmp/$$api.yaml api/openapi/$$api.yaml && \
	diff -q api/$${api}/$${api}api/$${api}api.gen.go $$tmp/$${api}api.gen.go >/dev/null || \
	{ echo "api/$${api}/$${api}api is stale: run make generate and commit the result"; exit 1; }; \
	done; \
	go run ./web/checkout/genlegalforms -o $$tmp/legal-forms.js && \
	diff -q $(LEGAL_FORMS_JS) $$tmp/legal-forms.js >/dev/null || \
	{ echo "$(LEGAL_FORMS_JS) is stale: run make generate and commit the result"; exit 1; }

## vendor-docs: refresh the API reference's renderer (web/docs/assets/swagger-ui) from npm at the version web/docs/package.json pins
# --ignore-scripts: swagger-ui-dist depends on @scarf/scarf, whose install
# script reports the download to scarf.sh; nothing here needs it to run.
vendor-docs:
	npm ci --prefix $(DOCS) --ignore-scripts --no-audit --no-fund
	mkdir -p $(DOCS)/assets/swagger-ui
	cp $(addprefix $(DOCS)/node_modules/swagger-ui-dist/,$(SWAGGER_UI_FILES)) $(DOCS)/assets/swagger-ui/

## vendor-console: refresh the console's htmx (web/console/assets/htmx) from npm at the version web/console/package.json pins
vendor-console:
	npm ci --prefix $(CONSOLE) --ignore-scripts --no-audit --no-fund
	mkdir -p $(CONSOLE)/assets/htmx
	cp $(CONSOLE)/node_modules/htmx.org/dist/htmx.min.js $(CONSOLE)/node_modules/htmx.org/LICENSE $(CONSOLE)/assets/htmx/

check-format:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi

## contract-check: oasdiff gate from the published Seller API to api/openapi/seller.yaml
contract-check:
	go tool oasdiff breaking --fail-on WARN $(REFERENCE_CONTRACT) api/openapi/seller.yaml

## bench-catalog: catalog performance figures (import throughput, search and pricing latency); takes minutes
bench-catalog: temporal-cli
	go test -run '^$$' -bench 'Catalog' -benchtime 1x -timeout 60m ./internal/bench/catalogbench/

## bench-offers: offer creation rate and latency, what building an offer costs, GET latency, lifecycles per second and the cost of metrics and tracing on the real stack; takes minutes
bench-offers: temporal-cli
	go test -run '^$$' -bench 'BenchmarkOfferCreation|BenchmarkOfferBuilding|BenchmarkGetOffer|BenchmarkLifecycles|BenchmarkObservabilityCost' -benchtime 1x -timeout 60m ./internal/bench/offerbench/

## bench-customer: the Customer-Facing API's GET /offers/{id} at 500/s, token exchanges at 200/s and acceptance to pending_review at 20/s, p99 each
bench-customer: temporal-cli
	go test -run '^$$' -bench 'BenchmarkCustomerGetOffer|BenchmarkTokenExchange|BenchmarkAcceptToPendingReview' -benchtime 1x -timeout 30m ./internal/bench/offerbench/

## bench-csv: CSV import of 1,000,000 generated rows against psql \copy, a re-import, and peak memory with 25 MB and 250 MB files
bench-csv: temporal-cli
	go test -run '^$$' -bench 'BenchmarkCSVImport' -benchtime 1x -timeout 60m ./internal/bench/csvbench/

## bench-collections: a collection run over 100,000 due installments: its pain.008 files' seconds and peak heap against CopyFrom (\copy) of as many rows
bench-collections:
	go test -run '^$$' -bench 'BenchmarkCollectionRun' -benchtime 1x -timeout 30m ./domain/collections/

## bench-invoices: issuing 10,000 invoices (PDF and CII e-invoice), one transaction each, as installments falling due issue them
bench-invoices:
	go test -run '^$$' -bench 'BenchmarkIssue10kInvoices' -benchtime 1x -timeout 30m ./domain/invoicing/

## bench-console: every list page of the console (operators' and the portal's) over HTTP with 1,000,000 offers in PostgreSQL: p50 and p99 per page and the first load's compressed size; takes minutes
bench-console: temporal-cli
	go test -run '^$$' -bench 'BenchmarkConsoleLists' -benchtime 1x -timeout 30m ./internal/bench/consolebench/

## bench-risk: the risk rules: a 50-rule set's evaluation (p50/p99), a backtest of 100,000 logged decisions, and decisions at 20/s of one company against a company each, in PostgreSQL and from the customer's acceptance on the real stack (p99); takes minutes
bench-risk: temporal-cli
	go test -run '^$$' -bench 'BenchmarkEvaluate50Rules' ./domain/risk/
	go test -run '^$$' -bench 'BenchmarkBacktest|BenchmarkExposureCheck' -benchtime 1x -timeout 30m ./domain/risk/
	go test -run '^$$' -bench 'BenchmarkAcceptToDecision' -benchtime 1x -timeout 30m ./internal/bench/offerbench/

## bench-contracts: the due-date storm of 10,000 contracts (TENURE_BENCH_CONTRACTS) against bare timer workflows, the worker's memory with them asleep, and the longest history of a 36-month contract with an extension
bench-contracts: temporal-cli
	go test -run '^$$' -bench 'BenchmarkDueDateStorm|BenchmarkLongestHistory' -benchtime 1x -timeout 60m ./internal/bench/contractbench/

## record-histories: record the workflow histories the replay tests replay, and the stored offers and orders with their views, from the current code
record-histories: temporal-cli
	TENURE_RECORD_HISTORIES=1 go test ./internal/testing/histories -run TestRecordHistories -count=1 -timeout 10m
