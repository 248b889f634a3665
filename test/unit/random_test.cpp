// Unit tests of the per-process CSPRNG stream (src/core/random.*), including fork safety.
#include "core/random.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <bitset>
#include <cstring>
#include <set>
#include <vector>

namespace idgen::random {
namespace {

TEST(Random, SuccessiveDrawsDiffer) {
  std::set<std::array<std::uint8_t, 16>> seen;
  for (int i = 0; i < 50000; ++i) {
    std::array<std::uint8_t, 16> draw{};
    ASSERT_TRUE(fill(draw.data(), draw.size()));
    seen.insert(draw);
  }
  EXPECT_EQ(seen.size(), 50000u);
}

TEST(Random, LargeFillsSpanBlocksWithoutRepeats) {
  // 1 MiB crosses many 32 KiB refills; every 16-byte chunk must be new and the bits balanced.
  std::vector<std::uint8_t> buf(1 << 20);
  ASSERT_TRUE(fill(buf.data(), buf.size()));
  std::set<std::array<std::uint8_t, 16>> chunks;
  std::size_t ones = 0;
  for (std::size_t i = 0; i < buf.size(); i += 16) {
    std::array<std::uint8_t, 16> c{};
    std::memcpy(c.data(), &buf[i], 16);
    chunks.insert(c);
  }
  for (std::uint8_t b : buf) ones += std::bitset<8>(b).count();
  EXPECT_EQ(chunks.size(), buf.size() / 16);
  const double fraction = static_cast<double>(ones) / (8.0 * buf.size());
  EXPECT_GT(fraction, 0.49);  // 8 Mbit: 0.01 is ~57 standard deviations
  EXPECT_LT(fraction, 0.51);
}

TEST(Random, OddSizesAndZero) {
  std::uint8_t one = 0;
  EXPECT_TRUE(fill(&one, 0));
  std::vector<std::uint8_t> odd(32 * 1024 + 7);
  EXPECT_TRUE(fill(odd.data(), odd.size()));
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(fill(&one, 1));
}

// Returns 32 bytes the child drew after fork, read through a pipe.
std::array<std::uint8_t, 32> draw_in_child() {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    std::array<std::uint8_t, 32> child{};
    const bool ok = fill(child.data(), child.size());
    const ssize_t written = write(fds[1], child.data(), child.size());
    _exit(ok && written == static_cast<ssize_t>(child.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::array<std::uint8_t, 32> got{};
  EXPECT_EQ(read(fds[0], got.data(), got.size()), static_cast<ssize_t>(got.size()));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return got;
}

TEST(Random, ForkedChildrenDoNotRepeatTheParentsStream) {
  // Prime the parent's buffer so that, without the fork handler, a child would serve the very
  // bytes the parent serves next (the postmaster-with-preload case).
  std::array<std::uint8_t, 16> prime{};
  ASSERT_TRUE(fill(prime.data(), prime.size()));
  const auto first_child = draw_in_child();
  const auto second_child = draw_in_child();
  std::array<std::uint8_t, 32> parent{};
  ASSERT_TRUE(fill(parent.data(), parent.size()));
  EXPECT_NE(first_child, parent);
  EXPECT_NE(second_child, parent);
  EXPECT_NE(first_child, second_child);
}

}  // namespace
}  // namespace idgen::random

namespace idgen::random {
namespace {

std::array<std::uint8_t, 64> draw64() {
  std::array<std::uint8_t, 64> out{};
  EXPECT_TRUE(fill(out.data(), out.size()));
  return out;
}

TEST(RandomTestSeed, SameSeedSameBytesOtherSeedOtherBytes) {
  ASSERT_TRUE(use_test_seed("42", 2, 0));
  EXPECT_TRUE(is_deterministic());
  const auto a1 = draw64();
  std::vector<std::uint8_t> big(100000);  // across several blocks
  ASSERT_TRUE(fill(big.data(), big.size()));
  const auto a2 = draw64();

  ASSERT_TRUE(use_test_seed("42", 2, 0));
  EXPECT_EQ(draw64(), a1);
  std::vector<std::uint8_t> big_again(100000);
  ASSERT_TRUE(fill(big_again.data(), big_again.size()));
  EXPECT_EQ(big_again, big);
  EXPECT_EQ(draw64(), a2);

  ASSERT_TRUE(use_test_seed("43", 2, 0));
  EXPECT_NE(draw64(), a1);

  ASSERT_TRUE(use_test_seed("42", 2, 1));  // same seed, another stream (a parallel worker)
  EXPECT_NE(draw64(), a1);

  use_kernel_entropy();
  EXPECT_FALSE(is_deterministic());
  EXPECT_NE(draw64(), a1);
}

TEST(RandomTestSeed, ForkedChildLeavesTestMode) {
  ASSERT_TRUE(use_test_seed("fork", 4, 0));
  const auto child = draw_in_child();
  ASSERT_TRUE(use_test_seed("fork", 4, 0));
  std::array<std::uint8_t, 32> parent{};
  ASSERT_TRUE(fill(parent.data(), parent.size()));
  EXPECT_NE(child, parent);
  use_kernel_entropy();
}

}  // namespace
}  // namespace idgen::random
