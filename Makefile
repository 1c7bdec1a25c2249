# scrolld — build, run and test. Every target installs what it needs on a fresh Debian machine
# with Swift: the apt packages below are installed when missing (as root, or through sudo).

SWIFT ?= swift
APT_PACKAGES := libinput-dev libudev-dev pkg-config python3 util-linux systemd
BUILD_FLAGS ?=
BIN := .build/debug/scrolld

.PHONY: all deps build run test fuzz clean

all: build

# Installs the C libraries' -dev packages when any is missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# The main job: the daemon, on real devices when any are readable; otherwise it says why and
# serves the bundled demo session in a loop. Watch it with `.build/debug/scrollctl watch`.
run: build
	$(BIN) run --fallback-replay examples/demo.scrolllog

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

# libFuzzer on the request decoder, the event log reader, the debug-events importer and the
# config parser, FUZZ_TIME seconds each (FUZZ_TARGETS picks some); see docs/fuzzing.md.
FUZZ_TIME ?= 60
FUZZ_TARGETS ?=
fuzz:
	SWIFT=$(SWIFT) Fuzz/build.sh
	Fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

clean:
	rm -rf .build
