// idgen.test_random_seed: seeds this session's random stream, which then repeats from run to run,
// for test suites. It is compiled into the production library, so it accepts only what reaches
// the session that sets it (below).
//
// With a seed (any text) the session's random stream is keyed from it (core/random.hpp), and the
// time-ordered generators use the session's private state; both restart whenever the test seed
// changes. Together with idgen.fixed_clock every idgen generator then returns the same ids on
// every run. Parallel workers inherit the setting and key their own stream from the test seed and
// their worker number, so no two processes replay the same bytes. Superuser only,
// and only for the session that sets it: postgresql.conf, ALTER SYSTEM, ALTER DATABASE/ROLE SET
// and command-line settings are refused, so it can never leak into other sessions. Empty (the
// default) means the kernel-seeded stream.
#include <cstdlib>
#include <cstring>

#include "core/random.hpp"
#include "pg/callback.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/parallel.h"
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

char* seed_text = nullptr;
// The seed the stream was last keyed with (malloc'd), so that re-applying the same value (GUC
// restores at subtransaction or transaction end) does not restart it and replay issued ids.
char* active_seed = nullptr;

bool check_random_seed(char** newval, void**, GucSource source) noexcept {
  if ((*newval)[0] == '\0') return true;
  switch (source) {
    case PGC_S_CLIENT:   // PGOPTIONS / startup packet of this very session
    case PGC_S_SESSION:  // SET, SET LOCAL, set_config()
      return true;
    default:
      GUC_check_errdetail("idgen.test_random_seed applies to one session only: use SET.");
      return false;
  }
}

void assign_random_seed(const char* newval, void*) noexcept {
  if (active_seed != nullptr && std::strcmp(active_seed, newval) == 0) return;
  std::free(active_seed);
  active_seed = nullptr;
  if (newval[0] == '\0') {
    if (random::is_deterministic()) random::use_kernel_entropy();
    return;
  }
  active_seed = strdup(newval);  // on failure the next assignment simply restarts the stream
  // A session is stream 0, parallel worker n stream n + 1. If OpenSSL fails here the stream stays
  // kernel-seeded: ids are then random, never repeated.
  const auto stream = static_cast<std::uint32_t>(IsParallelWorker() ? ParallelWorkerNumber + 1 : 0);
  (void)random::use_test_seed(newval, std::strlen(newval), stream);
  reset_private_generator_state();
}

}  // namespace

void define_random_seed_guc() {
  DefineCustomStringVariable(
      "idgen.test_random_seed",
      "Makes this session's idgen random stream deterministic (for tests only).",
      "Empty means random bytes seeded from the kernel. Any other text seeds a deterministic "
      "stream for this session; with idgen.fixed_clock every idgen generator then returns the "
      "same ids on every run. Only SET in a session is accepted.",
      &seed_text, "", PGC_SUSET, 0, noexcept_callback(check_random_seed),
      noexcept_callback(assign_random_seed), nullptr);
}

}  // namespace idgen::pg
