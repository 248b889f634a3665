// idgen.fixed_clock: pins the clock of every idgen time-based generator in this session.
//
// Empty (the default) means the real clock. Any other value must be an absolute, finite
// timestamptz; it is parsed once, in the check hook, and handed to core/clock as Unix µs.
// Relative words (now, today, ...) are refused: frozen at SET time they would surprise.
// The hook never raises an error, even for input PostgreSQL 15's date parser rejects by raising.
//
// Any role may pin its own session's clock: every generator but Snowflake then uses a state of the
// session's own whose ids carry random bits, so they cannot be the server's. Snowflake ids carry
// none, so the hook also records whether a superuser set the pin in this session
// (fixed_clock_guc.hpp), and Snowflake generation refuses any other pin.
#include "pg/fixed_clock_guc.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/callback.hpp"
#include "pg/compat.hpp"
#include "pg/convert.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/datetime.h"
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

char* fixed_clock_text = nullptr;
bool pinned_by_superuser = false;

// What the check hook hands to the assign hook (GUC "extra" data, kept with the value, so that a
// value restored at the end of a transaction or function brings back who set it).
struct Pin {
  std::int64_t unix_us;
  bool by_superuser;
};
IDGEN_STACK_SAFE(Pin);

// Whether a value from source was set by a superuser in this session. Only a session's own SET
// counts, and only while its role outside any SECURITY DEFINER function (the outer user) is a
// superuser: a definer's rights, a value set before the module was loaded and applied now, and
// database, role or configuration-file settings (which a database owner or a role itself may
// write) do not.
bool set_by_superuser(GucSource source) {
  if (source != PGC_S_SESSION && source != PGC_S_CLIENT) return false;
  return IsTransactionState() && superuser_arg(GetOuterUserId());
}

// Words that DecodeDateTime resolves against the current time. Frozen at SET time they would
// surprise, so they are refused wherever they appear ("today 12:00", "now UTC").
bool has_relative_word(char** field, int nf) {
  static const char* const kWords[] = {"now", "today", "tomorrow", "yesterday"};
  for (int i = 0; i < nf; ++i) {
    for (const char* word : kWords) {
      if (strcmp(field[i], word) == 0) return true;  // ParseDateTime lower-cases words
    }
  }
  return false;
}

// Parses an absolute timestamptz without ereport (a check hook must report through GUC_check_*).
bool parse_instant(const char* text, TimestampTz* out) {
  char workbuf[MAXDATELEN + MAXDATEFIELDS];
  char* field[MAXDATEFIELDS];
  int ftype[MAXDATEFIELDS];
  int nf = 0;
  int dtype = 0;
  int tz = 0;
  fsec_t fsec = 0;
  struct pg_tm tm_value {};
  if (ParseDateTime(text, workbuf, sizeof workbuf, field, ftype, MAXDATEFIELDS, &nf) != 0) {
    GUC_check_errdetail("\"%s\" is not a valid timestamp with time zone.", text);
    return false;
  }
  if (has_relative_word(field, nf)) {
    GUC_check_errdetail("Use an absolute instant such as '2026-01-01 00:00:00+00', not \"%s\".",
                        text);
    return false;
  }
  if (decode_date_time_quietly(field, ftype, nf, &dtype, &tm_value, &fsec, &tz) != 0) {
    if (GUC_check_errdetail_string == nullptr) {
      GUC_check_errdetail("\"%s\" is not a valid timestamp with time zone.", text);
    }
    return false;
  }
  if (dtype == DTK_EPOCH) {
    *out = SetEpochTimestamp();
    return true;
  }
  if (dtype != DTK_DATE) {
    GUC_check_errdetail("The clock can only be fixed to a finite instant.");
    return false;
  }
  if (tm2timestamp(&tm_value, fsec, &tz, out) != 0) {
    GUC_check_errdetail("\"%s\" is out of range.", text);
    return false;
  }
  return true;
}

bool check_fixed_clock(char** newval, void** extra, GucSource source) noexcept {
  const char* text = *newval;
  while (std::isspace(static_cast<unsigned char>(*text))) ++text;
  if (*text == '\0') {
    *extra = nullptr;  // real clock
    return true;
  }
  TimestampTz ts = 0;
  if (!parse_instant(text, &ts)) return false;
  std::int64_t unix_us = 0;
  if (!unix_us_from_timestamptz(ts, &unix_us)) {
    GUC_check_errdetail("\"%s\" is out of range.", text);
    return false;
  }
  // GUC extra data is freed by the GUC machinery itself (see guc_extra_alloc).
  auto* pin = static_cast<Pin*>(guc_extra_alloc(sizeof(Pin)));
  if (pin == nullptr) {
    GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
    GUC_check_errmsg("out of memory");
    return false;
  }
  *pin = {unix_us, set_by_superuser(source)};
  *extra = pin;
  return true;
}

void assign_fixed_clock(const char*, void* extra) noexcept {
  if (extra == nullptr) {
    clock::unpin();
    pinned_by_superuser = false;
  } else {
    const Pin* pin = static_cast<const Pin*>(extra);
    clock::pin(pin->unix_us);
    pinned_by_superuser = pin->by_superuser;
  }
}

}  // namespace

bool clock_pinned_by_superuser() { return clock::is_pinned() && pinned_by_superuser; }

void define_fixed_clock_guc() {
  DefineCustomStringVariable(
      "idgen.fixed_clock",
      "Pins the clock of idgen's time-based generators to this instant (for tests).",
      "Empty means the real clock. Otherwise an absolute timestamptz that every time-based "
      "idgen generator in the session uses as the current time.",
      &fixed_clock_text, "", PGC_USERSET, 0, noexcept_callback(check_fixed_clock),
      noexcept_callback(assign_fixed_clock), nullptr);
}

}  // namespace idgen::pg
