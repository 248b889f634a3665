// idgen.ledger_max_lead (see ledger/lead_guc.hpp): superuser-only, so that only a superuser can let
// events run further ahead, for example to import a ledger whose clock was ahead of this server's.
#include "pg/ledger/lead_guc.hpp"

#include <climits>

#include "core/clock.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr int kUnlimited = -1;
int max_lead_ms = 60 * 1000;

}  // namespace

void require_event_lead(std::uint64_t micros, const event_id::EventId* previous,
                        std::uint32_t ledger) {
  if (max_lead_ms == kUnlimited) return;
  if (previous != nullptr && micros == event_id::unpack(*previous).micros + 1) return;
  const std::int64_t now = clock::real_now_unix_us();
  const std::int64_t limit = now + static_cast<std::int64_t>(max_lead_ms) * 1000;
  if (micros <= static_cast<std::uint64_t>(limit < 0 ? 0 : limit)) return;
  const std::uint64_t lead_ms = (micros - static_cast<std::uint64_t>(now < 0 ? 0 : now)) / 1000;
  ereport(ERROR,
          (errcode(ERRCODE_CHECK_VIOLATION),
           errmsg("the event's timestamp is %llu.%03llu s ahead of the server's clock",
                  static_cast<unsigned long long>(lead_ms / 1000),
                  static_cast<unsigned long long>(lead_ms % 1000)),
           errdetail("An event of ledger %08x may lead the clock by idgen.ledger_max_lead (%s) at "
                     "most, since every later event must come after it.",
                     ledger, GetConfigOptionByName("idgen.ledger_max_lead", nullptr, false)),
           errhint("Append without an id at the real time (idgen.fixed_clock moves the timestamp "
                   "an append takes, not the limit); a superuser can raise "
                   "idgen.ledger_max_lead.")));
}

void define_ledger_max_lead_guc() {
  DefineCustomIntVariable(
      "idgen.ledger_max_lead",
      "How far ahead of the server's clock a ledger event's timestamp may be.",
      "The append trigger refuses an event whose timestamp leads the real clock by more (the "
      "ledger's latest timestamp + 1 is always accepted); -1 removes the limit. Only superusers "
      "can change it.",
      &max_lead_ms, 60 * 1000, kUnlimited, INT_MAX, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
      nullptr);
}

}  // namespace idgen::pg
