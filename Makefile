# The two commands README.md promises, on a fresh Debian machine with the Swift toolchain:
#   make run   installs what is missing, builds release, serves on 127.0.0.1:8080
#   make test  installs what is missing, builds, runs every test
# Both install the C libraries' -dev packages with apt when pkg-config cannot find them.

SHELL := /bin/bash
# The toolchain lives in /opt/swift on the project's machines; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin

APT_PACKAGES := libmicrohttpd-dev libjansson-dev libsqlite3-dev zlib1g-dev pkg-config libharfbuzz-dev libfreetype-dev libicu-dev libcairo2-dev libpixman-1-dev fonts-inter fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji libpq-dev postgresql
# What the XCTests need beyond the build: a font outside the default catalog (Liberation Sans,
# for MissingFontRestartTests' --font-dir).
TEST_APT_PACKAGES := fonts-liberation
HOST ?= 127.0.0.1
PORT ?= 8080
ARGS ?=

.PHONY: run test check build release deps test-deps benchmark lint-docker fuzz clean

deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists libmicrohttpd jansson sqlite3 zlib harfbuzz freetype2 icu-uc libpq cairo-ft \
		|| ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
		|| [ ! -d /usr/share/fonts/opentype/inter ] || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
		|| [ ! -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then \
		echo "installing $(APT_PACKAGES)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES); \
	fi
	@command -v swift >/dev/null || { echo "swift not found: install the Swift 6 toolchain (or put it in /opt/swift)"; exit 1; }

release: deps
	swift build -c release --product scrollstackd

run: release
	.build/release/scrollstackd --host $(HOST) --port $(PORT) $(ARGS)

build: deps
	swift build --build-tests

test-deps:
	@if [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ]; then \
		echo "installing $(TEST_APT_PACKAGES)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(TEST_APT_PACKAGES); \
	fi

test: build test-deps
	Scripts/run-tests.sh

# The inner loop: every XCTest (unit, end-to-end over HTTP, restart and crash), each test in a
# process of its own, in parallel (a worker per core and one more); none of Scripts/checks (browser, container, contract,
# replicas), which `make test` adds.
check: build test-deps
	swift test --skip-build --disable-swift-testing --parallel --num-workers $${SCROLLSTACK_TEST_WORKERS:-$$(( $$(nproc) + 1 ))}

benchmark: release
	Benchmarks/run.sh

# The container check alone (also run by `make test`): the build stage's copy list, hadolint,
# the runtime stage's libraries, and where buildah and podman can be had, the image itself.
lint-docker: deps
	Scripts/checks/50-container.sh

# The libFuzzer targets (Fuzz/README.md), FUZZ_SECONDS each (default 60), built in .build-fuzz.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Scripts/fuzz.sh

clean:
	rm -rf .build .build-fuzz
