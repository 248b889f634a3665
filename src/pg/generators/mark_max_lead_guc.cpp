// idgen.mark_max_lead (see mark_max_lead_guc.hpp): superuser-only, because adopting a mark moves
// the generators of every database of the server that far ahead. A database restored or upgraded
// from another server carries that server's mark; a mark far ahead of this server's clock means
// that one of the two clocks is wrong, which a superuser should look at before every new id of
// the server is stamped that far ahead.
#include "pg/generators/mark_max_lead_guc.hpp"

#include <climits>

#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr int kUnlimited = -1;
// A database copied between servers whose clocks agree to within a minute is adopted (its mark
// leads its last ids by about 2 s, and a server's own ids lead its clock by about 2 s after a
// start); a clock a day ahead, or a mark from a wrong year, is not.
constexpr int kDefaultMs = 60 * 1000;
int max_lead_ms = kDefaultMs;

}  // namespace

std::int64_t mark_max_lead_ms() { return max_lead_ms; }

void define_mark_max_lead_guc() {
  DefineCustomIntVariable(
      "idgen.mark_max_lead",
      "How far ahead of this server's clock another server's generator mark may be adopted.",
      "A database restored or upgraded from another server carries that server's generator mark; "
      "before its first server-wide id there, idgen moves the server's generators past it, in "
      "every database. A mark further ahead than this is refused with an error; -1 removes the "
      "limit. Only superusers can change it.",
      &max_lead_ms, kDefaultMs, kUnlimited, INT_MAX, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
      nullptr);
}

}  // namespace idgen::pg
