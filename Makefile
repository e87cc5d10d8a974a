# tinygrad-mlir: one entry point for a fresh machine.
#   make demo  - install deps, build, run the main job end to end
#   make test  - install deps, build, run every test suite
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DLLVM_USE_LINKER=lld -DCMAKE_EXPORT_COMPILE_COMMANDS=ON

.PHONY: all deps bench-deps configure build test tsan demo bench fuzz docs clean

all: build

deps:
	./scripts/install-deps.sh

# What `make bench` needs beyond the build: PyTorch and torchvision (bench/models).
bench-deps:
	TINYGRAD_BENCH_DEPS=1 ./scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j $(JOBS) all TinygradUnitTests

test: build
	./scripts/run-tests.sh $(BUILD)

# The runtime's tests under ThreadSanitizer alone (also part of `make test`).
tsan: configure
	ninja -C $(BUILD) -j $(JOBS) TinygradRuntimeTestsTSan
	$(BUILD)/unittests/TinygradRuntimeTestsTSan --gtest_brief=1

demo: build
	./scripts/demo.sh $(BUILD)

bench: build bench-deps
	./scripts/bench.sh $(BUILD)

fuzz: deps
	./scripts/fuzz.sh

clean:
	rm -rf $(BUILD)

# Regenerate docs/Dialects/*.md and docs/TinygradPasses.md from ODS, and the
# op index from the op table.
docs: build
	ninja -C $(BUILD) mlir-doc
	cp $(BUILD)/docs/Dialects/*.md docs/Dialects/
	cat $(BUILD)/docs/TinygradPasses.md $(BUILD)/docs/TinygradConversionPasses.md \
	  $(BUILD)/docs/TinygradCPUConversionPasses.md $(BUILD)/docs/TinygradGPUConversionPasses.md \
	  $(BUILD)/docs/TinygradHCQConversionPasses.md > docs/Passes.md
	python3 scripts/gen-op-index.py > docs/OpIndex.md
