// Google Benchmark of CRC-32C (src/core/crc32c.*) on one core: the dispatching path (the CPU's
// crc32 instruction where present) and the portable slice-by-8 path, from 64 bytes to 1 MiB.
// Target (docs/benchmarks.md): at least 5 GB/s for large inputs. Run: make bench-crc32c.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "core/crc32c.hpp"

namespace {

std::vector<std::uint8_t> input(std::size_t n) {
  std::vector<std::uint8_t> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  return data;
}

void BM_Crc32c(benchmark::State& state) {
  const auto data = input(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(idgen::crc32c::of(data.data(), data.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
  state.SetLabel(idgen::crc32c::uses_cpu_instruction() ? "crc32 instruction" : "tables");
}

void BM_Crc32cPortable(benchmark::State& state) {
  const auto data = input(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(idgen::crc32c::extend_portable(0, data.data(), data.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

BENCHMARK(BM_Crc32c)->Arg(64)->Arg(1024)->Arg(64 * 1024)->Arg(1 << 20);
BENCHMARK(BM_Crc32cPortable)->Arg(64)->Arg(1024)->Arg(64 * 1024)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
