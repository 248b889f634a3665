// Google Benchmark of the base62 decoders (src/core/base62.*) on one core, on valid random ids
// (mixed case, as real ids are: every character equally likely any of the 62), one decode per
// iteration over a rotating set of 4096 ids so that branch predictors cannot learn one id.
// Two figures per decoder: independent decodes (the processor overlaps several, so this is the
// cost per decode in a throughput) and chained ones, where the next id depends on the value just
// decoded (the time of one decode from start to end). Neither is the time of a SQL call, which
// overlaps the decode with PostgreSQL's own work: measure that with bench/peers.sh.
// Target (docs/benchmarks.md): at most 2 ns per character in SQL. Run: make bench-base62.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/base62.hpp"

namespace {

constexpr std::size_t kIds = 4096;

// kIds texts of `chars` characters, encoded from random values of the form's range.
std::vector<std::string> ids(std::size_t chars) {
  std::mt19937_64 random(42);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kIds; ++i) {
    std::string text(chars, '0');
    if (chars == idgen::base62::kU64Chars) {
      idgen::base62::encode_u64(random(), text.data());
    } else if (chars == idgen::base62::kU128Chars) {
      idgen::base62::encode_u128(idgen::u128_from_halves(random(), random()), text.data());
    } else {
      idgen::u128 v = idgen::u128_from_halves(random(), random()) % idgen::kDecimal28Max;
      idgen::base62::encode_decimal28(v, text.data());
    }
    out.push_back(text);
  }
  return out;
}

template <typename Out, idgen::DecodeResult (*Decode)(const char*, std::size_t, Out*)>
void decode(benchmark::State& state, std::size_t chars, bool chained) {
  const auto texts = ids(chars);
  std::size_t i = 0;
  Out value{};
  for (auto _ : state) {
    const std::string& t = texts[i & (kIds - 1)];
    benchmark::DoNotOptimize(Decode(t.data(), t.size(), &value));
    benchmark::DoNotOptimize(value);
    // Chained: which id comes next waits for this one's value (its low bit adds 0 or 1).
    i += 1 + (chained ? static_cast<std::size_t>(value & 1) : 0);
  }
  state.counters["ns/char"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(chars),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_DecodeBigint(benchmark::State& state) {
  decode<std::uint64_t, idgen::base62::decode_u64>(state, idgen::base62::kU64Chars, false);
}
void BM_DecodeDistributedId(benchmark::State& state) {
  decode<idgen::u128, idgen::base62::decode_decimal28>(state, idgen::base62::kDecimal28Chars,
                                                       false);
}
void BM_DecodeUuid(benchmark::State& state) {
  decode<idgen::u128, idgen::base62::decode_u128>(state, idgen::base62::kU128Chars, false);
}
void BM_DecodeBigintChained(benchmark::State& state) {
  decode<std::uint64_t, idgen::base62::decode_u64>(state, idgen::base62::kU64Chars, true);
}
void BM_DecodeDistributedIdChained(benchmark::State& state) {
  decode<idgen::u128, idgen::base62::decode_decimal28>(state, idgen::base62::kDecimal28Chars, true);
}
void BM_DecodeUuidChained(benchmark::State& state) {
  decode<idgen::u128, idgen::base62::decode_u128>(state, idgen::base62::kU128Chars, true);
}

}  // namespace

BENCHMARK(BM_DecodeBigint);
BENCHMARK(BM_DecodeDistributedId);
BENCHMARK(BM_DecodeUuid);
BENCHMARK(BM_DecodeBigintChained);
BENCHMARK(BM_DecodeDistributedIdChained);
BENCHMARK(BM_DecodeUuidChained);
BENCHMARK_MAIN();
