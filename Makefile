# sched/deadline workbench: the one entry point. `make help` lists the targets.
# ARCH selects the guest for the single-architecture targets (arm64 or x86_64).
# A guest says its architecture (platforms/GUEST.sh sets ARCH, or sources the
# platform that does): GUEST= alone picks the kernel to build and boot.
ifeq ($(origin ARCH)-$(origin GUEST),undefined-command line)
ARCH    := $(shell TOP='$(CURDIR)' sh -c '. "$$TOP/platforms/$(GUEST).sh" && echo "$$ARCH"' 2>/dev/null)
ifeq ($(ARCH),)
$(error GUEST=$(GUEST): no platforms/$(GUEST).sh that sets ARCH ($(notdir $(basename $(wildcard platforms/*.sh)))))
endif
endif
ARCH    ?= arm64
ARCHES  ?= arm64 x86_64
KERNEL  ?=
GUEST   ?= $(ARCH)
TESTS   ?=
# scratch: trees, build dirs, logs, results (BUILD=DIR: another one)
BUILD   ?= build
override BUILD := $(abspath $(BUILD))
SH      := sh
export ARCH GUEST TESTS BUILD

.PHONY: help deps tree export export-check apply kernel selftests initramfs \
	guest run test test-guest test-base torture bench checkpatch bisect-check am-check demo results \
	clean distclean

help:
	@echo 'The sched/deadline series on $(shell sed -n 's/^VERSION=//p' BASE), and its tests.'
	@echo
	@echo 'Main commands (each installs what it needs with apt-get):'
	@echo '  make demo          build the patched arm64 kernel, boot the big.LITTLE guest,'
	@echo '                     run a short deadline scenario and print its table, then'
	@echo '                     a FIFO pipeline in a cpu.rt.max group beside a FIFO hog'
	@echo '  make test          both architectures: build, boot, run KUnit + kselftests,'
	@echo '                     checkpatch every patch; ends with "N passed, N failed";'
	@echo '                     keeps logs, summary and tables in build/results/test-DATE-COMMIT/'
	@echo '  make results       docs/results.md (every case, what it measured), the README'
	@echo '                     results and feature tables from the latest make test, and'
	@echo '                     docs/bench.md results from the latest make bench'
	@echo '                     (RESULTS=dir, BENCH_RESULTS=dir choose others)'
	@echo
	@echo 'Series workflow (build/linux is scratch; patches/NN-topic/ is the source of truth):'
	@echo '  make tree          build/linux = pristine base + one commit per patch (git am),'
	@echo '                     branch topic/NN-topic at the end of each topic series'
	@echo '  make export        rewrite patches/NN-topic/ from base..HEAD of build/linux'
	@echo '                     (a change to a patch: commit --fixup, rebase -i --autosquash)'
	@echo '  make export-check  fail if build/linux holds work that patches/ lacks'
	@echo '  make apply KERNEL=/path/to/linux-6.12   apply the series to your own tree'
	@echo '  make checkpatch    checkpatch.pl --strict on every patch'
	@echo '  make am-check      git am of each topic directory, in order, on a pristine'
	@echo '                     6.12.118 gives make tree'"'"'s tree'
	@echo '  make bisect-check  build every patch on its own, arm64 and x86_64, kernel and'
	@echo '                     the kselftests it touches (long; FROM=N: from patch N on)'
	@echo
	@echo 'Pieces (ARCH=arm64|x86_64, default arm64; GUEST=NAME, a platforms/NAME.sh, implies its ARCH):'
	@echo '  make deps          install the Debian packages (root)'
	@echo '  make kernel        configure (configs/) and build build/$$ARCH/ with ccache'
	@echo '  make selftests     cross-build the kselftests into build/$$ARCH/kselftest'
	@echo '  make initramfs     build/$$ARCH/initramfs.cpio: busybox, rt-tests, rt-app, tests'
	@echo '  make guest         kernel + selftests + initramfs'
	@echo '  make run           boot the guest to a shell (Ctrl-a x quits)'
	@echo '  make test-guest    run the tests in one guest (TESTS=glob,glob selects)'
	@echo '                     GUEST=arm64-slowswitch: the same kernel, cpufreq slow switch'
	@echo '                     TESTARGS="-v VARIANT" passes arguments to each kselftest'
	@echo '                     binary, REPEAT=N runs the selection N times (a flake hunt),'
	@echo '                     LOGLEVEL=7 shows the kernel log on the console (default 1)'
	@echo '  make test-base     the same tests on the unpatched base kernel (same config,'
	@echo '                     series initramfs), e.g. TESTS=*grub* ARCH=x86_64;'
	@echo '                     REF=N: on the series up to its patch N instead'
	@echo '  make torture       the long bandwidth-accounting torture run in the guest:'
	@echo '                     TORTURE="-s SEED -p PHASES -d SECONDS" (default: 20 phases'
	@echo '                     of 30 s, seed 1; seeds in a list as -s 1:3; ARCH= and'
	@echo '                     GUEST= choose the guest)'
	@echo '  make bench         base vs series in one run, report and plots in build/bench/:'
	@echo '                     hot-path cost (ARCH=x86_64 guest by default, RUNS boots'
	@echo '                     each, ROUNDS=20000) and deadline workloads on the arm64'
	@echo '                     big.LITTLE guest (task sets, misses, response times,'
	@echo '                     shares, frequency, energy vs the optimum, rt-tests);'
	@echo '                     BENCH=quick (default, a few minutes) or BENCH=full;'
	@echo '                     PARTS="hotpath dl" chooses the parts; BASE_REF=REV compares'
	@echo '                     the hot paths against the kernel tree at REV (HEAD~1: the'
	@echo '                     last patch alone) instead of the unpatched base'
	@echo '  make clean         remove build/$$ARCH; make distclean removes build/'

deps:
	@$(SH) scripts/deps.sh

$(BUILD)/linux/.git:
	@$(SH) scripts/tree.sh

tree: deps
	@$(SH) scripts/tree.sh

export:
	@$(SH) scripts/export.sh

export-check:
	@$(SH) scripts/export.sh --check

apply:
	@$(SH) scripts/apply.sh "$(KERNEL)"

kernel: $(BUILD)/linux/.git
	@$(SH) scripts/build.sh

selftests: kernel
	@$(SH) scripts/selftests.sh

initramfs: selftests
	@$(SH) scripts/initramfs.sh

guest: initramfs

run: guest
	@MODE=shell $(SH) scripts/run.sh

test-guest: guest
	@MODE=test $(SH) scripts/run.sh >/dev/null; \
	python3 scripts/ktap_summary.py $(GUEST)=$(BUILD)/$(ARCH)/test-$(GUEST).log

test-base: initramfs
	@$(SH) scripts/base.sh

TORTURE ?= -s 1 -p 20 -d 30
torture: guest
	@MODE=torture TORTURE="$(TORTURE)" $(SH) scripts/run.sh >/dev/null; \
	python3 scripts/ktap_summary.py torture-$(GUEST)=$(BUILD)/$(ARCH)/torture-$(GUEST).log

# x86_64 unless ARCH is given: its guest runs the paths faster under TCG
BENCH_ARCH = $(if $(filter command line,$(origin ARCH)),$(ARCH),x86_64)
BENCH ?= quick
PARTS ?= hotpath dl
bench: deps $(BUILD)/linux/.git
	@ARCH=$(BENCH_ARCH) GUEST=$(if $(filter command line,$(origin GUEST)),$(GUEST),$(BENCH_ARCH)) \
	BENCH=$(BENCH) PARTS="$(PARTS)" $(SH) scripts/bench.sh

# the latest results directories of make test and make bench, unless
# RESULTS= and BENCH_RESULTS= name others
latest = $(patsubst %/,%,$(lastword $(sort $(wildcard $(BUILD)/results/$(1)-*/))))
RESULTS ?= $(call latest,test)
BENCH_RESULTS ?= $(call latest,bench)
results:
	@test -n "$(RESULTS)" || { echo "no $(BUILD)/results/test-*/: run make test first" >&2; exit 1; }
	@python3 scripts/results.py docs $(RESULTS) $(BENCH_RESULTS) && \
	echo "docs/results.md and README.md's blocks from $(RESULTS)" && \
	{ [ -z "$(BENCH_RESULTS)" ] || echo "docs/bench.md's results from $(BENCH_RESULTS)"; }

checkpatch: $(BUILD)/linux/.git
	@$(SH) scripts/checkpatch.sh

am-check: $(BUILD)/linux/.git
	@$(SH) scripts/am-check.sh; \
	python3 scripts/ktap_summary.py am-check=$(BUILD)/am-check.log

bisect-check: $(BUILD)/linux/.git
	@FROM="$(FROM)" $(SH) scripts/bisect-check.sh; \
	python3 scripts/ktap_summary.py bisect=$(BUILD)/bisect-check.log

test: deps
	@$(SH) scripts/test.sh $(ARCHES)

demo: deps
	@$(MAKE) -s guest ARCH=arm64
	@MODE=demo ARCH=arm64 GUEST=arm64 $(SH) scripts/run.sh | sed -n '/^#/d;/reboot:/d;p'

clean:
	rm -rf $(BUILD)/$(ARCH)

distclean:
	rm -rf $(BUILD)
