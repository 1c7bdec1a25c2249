# scrolld — build, run and test. Every target installs what it needs on a fresh Debian machine
# with Swift: the apt packages below are installed when missing (as root, or through sudo).

SWIFT ?= swift
APT_PACKAGES := libinput-dev libudev-dev libsystemd-dev libglib2.0-dev pkg-config python3 util-linux systemd librsvg2-bin iproute2
BUILD_FLAGS ?=
BIN := .build/debug/scrolld

.PHONY: all deps build run test test-python test-python-deps check-warnings bench bench-overload docs fuzz clean

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
	@echo "clients: .build/debug/scrollctl watch; the Python library (pip install ./clients/python,"
	@echo "docs/clients.md); a windowed demo: python3 examples/kiosk_demo.py (pip install pygame)"
	$(BIN) run --fallback-replay examples/demo.scrolllog

# Every test judges behaviour, never time: a check waits for its condition, with a deadline that
# only catches a hang (docs/decisions.md, "Tests and time"). scripts/soak-tests.sh N runs this N
# times on a fresh clone beside a busy core.
# The desktop watchers' tests (Tests/ScrollDesktopWatcherTests) run real GSettings, dconf and a
# portal peer on a private session bus; without these packages they say they are skipped.
DESKTOP_TEST_APT := dbus-daemon libglib2.0-bin dconf-service dconf-gsettings-backend gsettings-desktop-schemas python3-dbus python3-gi
test: deps
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(DESKTOP_TEST_APT)"
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@# Built before the tests rather than by the man page test, alongside the others.
	$(MAKE) --no-print-directory manual-tool
	@# The overload test (a thousand clients) runs alone, after the others: its load would only
	@# slow them down, and its figures are clearer without theirs.
	$(SWIFT) test --skip-build $(BUILD_FLAGS) --skip OverloadTests
	$(SWIFT) test --skip-build $(BUILD_FLAGS) --filter OverloadTests
	$(MAKE) --no-print-directory test-python
	$(MAKE) --no-print-directory test-c
	$(MAKE) --no-print-directory test-js

# The Python client (clients/python), its windowed demo under Xvfb and the widget recipes,
# against the daemon built above ($(BIN), or SCROLLD_BIN). What they need is installed when
# missing: Xvfb, xwd, xdotool and jq from apt, pytest and pygame from PyPI (docs/clients.md).
PYTHON ?= python3
PYTHON_TEST_APT := xvfb xauth x11-apps xdotool jq
PYTHON_TEST_MODULES := pytest pygame
test-python: test-python-deps
	$(PYTHON) -m pytest clients/python/tests -q

# pip installs into the interpreter that runs the tests; where that is Debian's own python3
# (PEP 668, "externally managed"), the second attempt says so with --break-system-packages.
test-python-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(PYTHON_TEST_APT)"
	@$(PYTHON) -m pip --version >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES=python3-pip
	@for module in $(PYTHON_TEST_MODULES); do \
	  $(PYTHON) -c "import $$module" >/dev/null 2>&1 && continue; \
	  echo "installing $$module with pip"; \
	  $(PYTHON) -m pip install --quiet $$module 2>/dev/null || \
	    $(PYTHON) -m pip install --quiet --break-system-packages $$module || exit 1; \
	done

# The JavaScript client (clients/js, docs/clients.md "JavaScript") with Node's test runner against
# the daemon built above ($(BIN), or SCROLLD_BIN), over the Unix socket and the WebSocket listener,
# and the web demo (examples/web) in headless Chromium, checked on screenshots (SCROLLD_SCREENSHOTS=DIR
# keeps them). nodejs and chromium come from apt when missing; Node's WebSocket is behind a flag before Node 22 (and absent
# in 18, where the WebSocket tests say they are skipped and why).
JS_SCROLLD_BIN = $(abspath $(or $(SCROLLD_BIN),$(BIN)))
.PHONY: test-js
test-js:
	@command -v node >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES=nodejs
	@command -v chromium >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES=chromium
	@test -x "$(JS_SCROLLD_BIN)" || $(SWIFT) build --product scrolld $(BUILD_FLAGS)
	@flag=""; node --experimental-websocket -e 0 >/dev/null 2>&1 && flag=--experimental-websocket; \
	  echo "node $$(node --version) $$flag --test clients/js/test/ examples/web/test/"; \
	  SCROLLD_BIN=$(JS_SCROLLD_BIN) node $$flag --test clients/js/test/ examples/web/test/

# libscrolld, the C client (libscrolld/, docs/clients.md "C"): its tests against the daemon built
# above ($(BIN), or SCROLLD_BIN), built with ASan and UBSan; its exports checked against its
# version script; the examples (examples/scrolld_example.c, the SDL2 demo under Xvfb). gcc,
# binutils, libsdl2-dev and Xvfb come from apt when missing.
C_TEST_APT := gcc libc6-dev binutils make pkg-config libsdl2-dev xvfb xauth x11-apps xdotool python3
C_SCROLLD_BIN = $(abspath $(or $(SCROLLD_BIN),$(BIN)))
.PHONY: test-c
test-c:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(C_TEST_APT)"
	@test -x "$(C_SCROLLD_BIN)" || $(SWIFT) build --product scrolld $(BUILD_FLAGS)
	$(MAKE) -C libscrolld test SCROLLD_BIN=$(C_SCROLLD_BIN)
	$(MAKE) -C libscrolld build/sdl_demo
	SCROLLD_BIN=$(C_SCROLLD_BIN) $(PYTHON) libscrolld/tests/sdl_screenshots.py libscrolld/build/sdl_demo

# No compiler warning in the project's own code (Sources, Tests, Benchmarks, Fuzz/Sources): every
# one is listed as FILE:LINE:COLUMN and the target fails. Builds in .build-warnings (and
# Benchmarks/.build-warnings) with SCROLLD_WARNINGS_AS_ERRORS=1; see scripts/check-warnings.sh.
check-warnings: deps
	SWIFT=$(SWIFT) scripts/check-warnings.sh

# The performance measurements (release builds, package-benchmark, callgrind, replay of a generated
# million-event log, the live daemon): writes Benchmarks/results.md. Needs valgrind. Then the
# overload latency (bench-overload) three times: on CPUs shared with the test's load (the
# daemon under SCHED_FIFO, then its event loop under a SCHED_DEADLINE reservation), and with the
# daemon alone on a CPU.
bench: deps
	@command -v valgrind >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; $$SUDO apt-get install -y -qq valgrind; }
	@command -v node >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES=nodejs
	Benchmarks/scripts/bench.sh
	@# The C client's cost per state, beside the Python and Swift clients' (docs/clients.md, "C").
	$(MAKE) -C libscrolld bench
	$(SWIFT) build -c release --package-path Benchmarks --product client-states
	Benchmarks/.build/release/client-states 200000
	OVERLOAD_DAEMON_CPU= OVERLOAD_DEADLINE= Benchmarks/scripts/overload.sh $(OVERLOAD_RUNS)
	OVERLOAD_DAEMON_CPU= OVERLOAD_DEADLINE=$(OVERLOAD_DEADLINE) Benchmarks/scripts/overload.sh $(OVERLOAD_RUNS)
	OVERLOAD_DAEMON_CPU=last OVERLOAD_DEADLINE= Benchmarks/scripts/overload.sh $(OVERLOAD_RUNS)

# "Within one frame" under overload, a figure: OVERLOAD_RUNS runs of the overload test against
# the release build under SCHED_FIFO; how many met the bound goes into docs/performance.md and
# docs/security.md. OVERLOAD_DAEMON_CPU=N (or last): the daemon alone on that CPU, the test on
# the others. OVERLOAD_DEADLINE=R/P: the event loop under SCHED_DEADLINE, R ms every P ms.
OVERLOAD_RUNS ?= 10
OVERLOAD_DEADLINE ?= 9.5/10
bench-overload: deps
	Benchmarks/scripts/overload.sh $(OVERLOAD_RUNS)

# The DocC archives of ScrollModel and ScrollClient, through a scratch package (docs/api.md); any DocC warning fails it.
docs:
	scripts/api-docs.sh

# libFuzzer on the request decoder, the event log reader, the debug-events importer, the
# config parser and the TOML reader, FUZZ_TIME seconds each (FUZZ_TARGETS picks some); see docs/fuzzing.md.
FUZZ_TIME ?= 60
FUZZ_TARGETS ?=
fuzz:
	SWIFT=$(SWIFT) Fuzz/build.sh
	Fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)
	$(MAKE) --no-print-directory fuzz-requests

# The daemon's request surface: every op with values from the extremes against a real
# `scrolld run` ($(BIN), or SCROLLD_BIN) over its socket, for FUZZ_TIME seconds (Fuzz/requests,
# docs/fuzzing.md); Hypothesis is installed from PyPI when missing.
.PHONY: fuzz-requests
fuzz-requests: build
	@$(MAKE) --no-print-directory test-python-deps PYTHON_TEST_APT= PYTHON_TEST_MODULES=hypothesis
	SCROLLD_BIN=$${SCROLLD_BIN:-$(BIN)} $(PYTHON) Fuzz/requests/fuzz_requests.py --time $(FUZZ_TIME)

clean:
	rm -rf .build .build-warnings Benchmarks/.build Benchmarks/.build-warnings

# --- Installation -------------------------------------------------------------------------------
# `make release && sudo make install` (or just `make install` as a user who owns DESTDIR). GNU
# conventions: PREFIX (default /usr/local) and DESTDIR. `make uninstall` with the same variables
# removes exactly the files install put there. docs/packaging.md describes every path.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
# systemd's user manager reads /usr/local/lib/systemd/user and /usr/lib/systemd/user.
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/scrolld
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# /etc whatever the PREFIX: scrolld searches $XDG_CONFIG_DIRS, then /etc/xdg (the XDG default),
# never $(PREFIX)/etc/xdg, so a config installed under /usr/local/etc would never be read.
SYSCONFDIR ?= /etc
CONFDIR ?= $(SYSCONFDIR)/xdg/scrolld

# What install installs: the release build, with the Swift runtime linked in so the binaries
# keep working when the toolchain moves or goes (they then need only libc, libstdc++, libinput
# and libudev), and bound at load time (full RELRO: the relocation table is read-only before
# main runs). CONFIGURATION=debug installs the debug build instead (the install test does).
CONFIGURATION ?= release
RELEASE_FLAGS ?= --static-swift-stdlib -Xlinker -z -Xlinker now
BIN_DIR ?= .build/$(CONFIGURATION)
# SKIP_BUILD=1: use the binaries in BIN_DIR as they are and never run SwiftPM (tests do: they
# run under `swift test`, which holds .build's lock). As root in a tree another user builds in
# (`sudo make install` after `make release`), install never runs SwiftPM either, which would
# leave root-owned files in .build: it checks that the binaries are newer than the sources.
SKIP_BUILD ?=
ROOT_IN_USER_TREE := $(shell [ "$$(id -u)" = 0 ] && [ -d .build ] && [ "$$(stat -c %u .build)" != 0 ] && echo yes)
BUILT := $(if $(SKIP_BUILD),built,$(if $(ROOT_IN_USER_TREE),up-to-date,release))

# README.md at the top of DOCDIR and docs/ beside it, as in the tree, so their relative links
# (README -> docs/config.md, docs -> ../examples/…, the plot image) work where installed.
DOCS := $(wildcard docs/*.md)
DOC_IMAGES := docs/images/demo-plot.png docs/images/drawing-a-state.svg docs/images/sticky-push-off.svg docs/images/appbars-demo-refreshing.png docs/images/appbars-demo-pushed-off.png docs/images/kiosk-demo.png docs/images/kiosk-demo-scrolled.png docs/images/web-demo.png
EXAMPLES := $(wildcard examples/*.toml) examples/client.py examples/feed.py examples/client.sh examples/demo.scrolllog
UNITS := scrolld.service scrolld.socket

.PHONY: release built up-to-date install uninstall man manual-tool check-man deb

# The stamp records when the sources last went into BIN_DIR (SwiftPM relinks only what changed).
release: deps
	$(SWIFT) build -c $(CONFIGURATION) $(RELEASE_FLAGS)
	touch $(BIN_DIR)/.make-release

built:
	@for tool in scrolld scrollctl; do \
	  test -x $(BIN_DIR)/$$tool || { echo "$(BIN_DIR)/$$tool is missing: run 'make release' first (or leave out SKIP_BUILD)" >&2; exit 1; }; \
	done

up-to-date: built
	@test -e $(BIN_DIR)/.make-release || { echo "$(BIN_DIR) was not built by 'make release': run it as $$(stat -c %U .build) first" >&2; exit 1; }
	@newer=$$(find Sources Package.swift -newer $(BIN_DIR)/.make-release | head -1); \
	if [ -n "$$newer" ]; then \
	  echo "$$newer changed since the last build in $(BIN_DIR): run 'make release' as $$(stat -c %U .build), then 'sudo make install'" >&2; exit 1; \
	fi

install: $(BUILT)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) \
	  $(DESTDIR)$(DOCDIR)/docs/images $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(CONFDIR)
	install -m 755 $(BIN_DIR)/scrolld $(BIN_DIR)/scrollctl $(DESTDIR)$(BINDIR)/
	@# The source unit names /usr/local/bin (the default PREFIX) so it works as it is; the
	@# installed one names the binary this install put in BINDIR.
	sed 's|^ExecStart=/usr/local/bin/scrolld |ExecStart=$(BINDIR)/scrolld |' systemd/scrolld.service > $(DESTDIR)$(USERUNITDIR)/scrolld.service
	grep -q '^ExecStart=$(BINDIR)/scrolld ' $(DESTDIR)$(USERUNITDIR)/scrolld.service || \
	  { echo "systemd/scrolld.service: expected 'ExecStart=/usr/local/bin/scrolld ...' to rewrite" >&2; exit 1; }
	chmod 644 $(DESTDIR)$(USERUNITDIR)/scrolld.service
	install -m 644 systemd/scrolld.socket $(DESTDIR)$(USERUNITDIR)/
	install -m 644 man/scrolld.1 man/scrollctl.1 $(DESTDIR)$(MANDIR)/man1/
	@# Completions come from the argument parsers of the binaries being installed. bash sources
	@# its completions, so the generated script's #! line goes.
	for tool in scrolld scrollctl; do \
	  bash=$$($(BIN_DIR)/$$tool --generate-completion-script bash) && \
	  printf '%s\n' "$$bash" | sed '1{/^#!/d}' > $(DESTDIR)$(BASHCOMPDIR)/$$tool && \
	  $(BIN_DIR)/$$tool --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_$$tool && \
	  $(BIN_DIR)/$$tool --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish && \
	  chmod 644 $(DESTDIR)$(BASHCOMPDIR)/$$tool $(DESTDIR)$(ZSHCOMPDIR)/_$$tool $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish || exit 1; \
	done
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 $(DOC_IMAGES) $(DESTDIR)$(DOCDIR)/docs/images/
	install -m 644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	@# A configuration edited in place is kept: install never overwrites local changes.
	@conf=$(DESTDIR)$(CONFDIR)/scrolld.toml; \
	if [ -e $$conf ] && ! cmp -s config/scrolld.toml $$conf; then \
	  echo "keeping $$conf: it differs from config/scrolld.toml"; \
	else echo "install -m 644 config/scrolld.toml $$conf"; install -m 644 config/scrolld.toml $$conf; fi
	@# libscrolld (the C client) with the rest; SKIP_BUILD=1 installs only what is built already
	@# (the daemon's package, debian/, does: libscrolld has packages of its own).
	$(if $(SKIP_BUILD),,$(MAKE) --no-print-directory install-libscrolld)

# libscrolld alone: libscrolld.so.1 (soname link and .so), <scrolld.h>, scrolld.pc, man3.
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
LIBSCROLLD_VARS = PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR) MANDIR=$(MANDIR) DESTDIR=$(if $(DESTDIR),$(abspath $(DESTDIR)))
.PHONY: install-libscrolld uninstall-libscrolld deb-libscrolld
install-libscrolld:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="gcc libc6-dev"
	$(MAKE) -C libscrolld install $(LIBSCROLLD_VARS)
	@# Installed for real (not staged in DESTDIR, which leaves it to a package), the dynamic
	@# linker's cache learns of the library, or a program built against it would not start.
	$(if $(DESTDIR),,@if [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then echo ldconfig; ldconfig; \
	  else echo "libscrolld: run ldconfig as root, or link with -Wl,-rpath,$(LIBDIR), so that programs find libscrolld.so.1"; fi)

uninstall-libscrolld:
	$(MAKE) -C libscrolld uninstall $(LIBSCROLLD_VARS)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scrolld $(DESTDIR)$(BINDIR)/scrollctl
	$(if $(SKIP_BUILD),,$(MAKE) --no-print-directory uninstall-libscrolld)
	rm -f $(addprefix $(DESTDIR)$(USERUNITDIR)/,$(UNITS))
	rm -f $(DESTDIR)$(MANDIR)/man1/scrolld.1 $(DESTDIR)$(MANDIR)/man1/scrollctl.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/scrolld $(DESTDIR)$(BASHCOMPDIR)/scrollctl
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_scrolld $(DESTDIR)$(ZSHCOMPDIR)/_scrollctl
	rm -f $(DESTDIR)$(FISHCOMPDIR)/scrolld.fish $(DESTDIR)$(FISHCOMPDIR)/scrollctl.fish
	rm -f $(DESTDIR)$(DOCDIR)/README.md $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOCS) $(DOC_IMAGES)) $(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(EXAMPLES)))
	@conf=$(DESTDIR)$(CONFDIR)/scrolld.toml; \
	if [ -e $$conf ] && ! cmp -s config/scrolld.toml $$conf; then \
	  echo "keeping $$conf: it differs from config/scrolld.toml"; \
	else echo "rm -f $$conf"; rm -f $$conf; fi
	@# Only scrolld's own directories go; shared ones (bin, man1, ...) stay even when empty.
	for dir in $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR)/docs/images $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CONFDIR); do \
	  if [ -d $$dir ]; then rmdir $$dir 2>/dev/null || echo "keeping $$dir: not empty"; fi; \
	done

# --- Manual pages -------------------------------------------------------------------------------
# man/*.1 are generated from the argument parsers by swift-argument-parser's generate-manual
# plugin (its discussions' blank lines made paragraphs) and committed. The date is pinned so the pages change only when the parsers do; a test
# (`make check-man`) regenerates them and fails when the committed ones are stale.

MAN_DATE := 2026-11-22
MANUAL_FLAGS := --date $(MAN_DATE)
# The discussions' blank lines become mdoc paragraphs (groff warns about empty input lines).
MAN_PARAGRAPHS := sed -e 's/^$$/.Pp/'
MAN_BIN_DIR ?= .build/debug
# The plugin's own tool, built on its own (a second SwiftPM can't use .build while `swift test`
# holds it) from the swift-argument-parser this package resolved.
GENERATE_MANUAL_SCRATCH ?= .build-manual
GENERATE_MANUAL := $(GENERATE_MANUAL_SCRATCH)/debug/generate-manual

man: build
	$(SWIFT) package plugin generate-manual --configuration debug $(MANUAL_FLAGS)
	for tool in scrolld scrollctl; do \
	  $(MAN_PARAGRAPHS) .build/plugins/GenerateManual/outputs/$$tool/$$tool.1 > man/$$tool.1 || exit 1; \
	done

manual-tool:
	@test -d .build/checkouts/swift-argument-parser || { echo "no .build/checkouts/swift-argument-parser: run 'swift build' first" >&2; exit 1; }
	$(SWIFT) build --package-path .build/checkouts/swift-argument-parser --scratch-path $(abspath $(GENERATE_MANUAL_SCRATCH)) --product generate-manual

check-man: $(if $(SKIP_BUILD),,build) manual-tool
	@out=$$(mktemp -d); status=0; \
	for tool in scrolld scrollctl; do \
	  $(GENERATE_MANUAL) $(MAN_BIN_DIR)/$$tool $(MANUAL_FLAGS) --output-directory $$out || exit 1; \
	  $(MAN_PARAGRAPHS) $$out/$$tool.1 > $$out/$$tool.man || exit 1; \
	  if ! diff -u man/$$tool.1 $$out/$$tool.man; then \
	    echo "man/$$tool.1 is out of date with $$tool's argument parser: run 'make man' and commit man/" >&2; status=1; \
	  fi; \
	done; rm -rf $$out; exit $$status

# --- Debian package -----------------------------------------------------------------------------
# `make deb`: dpkg-buildpackage -us -uc -b on a copy of the tree in .build-deb (it writes the
# .deb beside the source directory, and the copy keeps its own incremental SwiftPM build), then
# lintian. The result is .build-deb/scrolld_VERSION_ARCH.deb. docs/packaging.md.
DEB_APT_PACKAGES := debhelper dpkg-dev fakeroot lintian rsync $(APT_PACKAGES)
DEB_WORKDIR ?= .build-deb
# Expanded only by the deb recipe, once dpkg-dev is there.
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_SOURCE = $(DEB_WORKDIR)/scrolld-$(DEB_VERSION)

deb: deb-libscrolld
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(DEB_APT_PACKAGES)"
	mkdir -p $(DEB_SOURCE)
	rsync -a --delete --exclude='/.build*' --exclude=/.git --exclude=/.swiftpm --exclude=/Package.resolved ./ $(DEB_SOURCE)/
	cd $(DEB_SOURCE) && dpkg-buildpackage -us -uc -b
	lintian --info --display-info $(DEB_WORKDIR)/scrolld_$(DEB_VERSION)_*.changes

# libscrolld1 and libscrolld-dev, from their own source package (libscrolld/debian): built in
# $(DEB_WORKDIR)/libscrolld, then lintian, which fails on any warning.
deb-libscrolld:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="debhelper dpkg-dev fakeroot lintian gcc libc6-dev"
	$(MAKE) -C libscrolld deb DEB_WORKDIR=$(abspath $(DEB_WORKDIR))/libscrolld
