// idgen.test_random_seed: a deterministic random stream for the session, for test suites.
//
// With a seed (any text) the session's random stream is keyed from it (core/random.hpp), and the
// time-ordered generators use the session's private state, reset at each SET; together with
// idgen.fixed_clock every idgen generator then returns the same ids on every run. Superuser only,
// and only for the session that sets it: postgresql.conf, ALTER SYSTEM, ALTER DATABASE/ROLE SET
// and command-line settings are refused, so it can never leak into other sessions. Empty (the
// default) means the kernel-seeded stream.
#include <cstring>

#include "core/random.hpp"
#include "pg/generator_state.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {
namespace {

char* test_seed_text = nullptr;

bool check_test_seed(char** newval, void**, GucSource source) {
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

void assign_test_seed(const char* newval, void*) {
  if (newval[0] == '\0') {
    if (random::is_deterministic()) random::use_kernel_entropy();
    return;
  }
  // If OpenSSL fails here the stream stays kernel-seeded: ids are then random, never repeated.
  (void)random::use_test_seed(newval, std::strlen(newval));
  reset_private_generator_state();
}

}  // namespace

void define_test_seed_guc() {
  DefineCustomStringVariable(
      "idgen.test_random_seed",
      "Makes this session's idgen random stream deterministic (for tests only).",
      "Empty means random bytes seeded from the kernel. Any other text seeds a deterministic "
      "stream for this session; with idgen.fixed_clock every idgen generator then returns the "
      "same ids on every run. Only SET in a session is accepted.",
      &test_seed_text, "", PGC_SUSET, 0, check_test_seed, assign_test_seed, nullptr);
}

}  // namespace idgen::pg
