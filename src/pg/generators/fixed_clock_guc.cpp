// idgen.fixed_clock: pins the clock of every idgen time-based generator in this session.
//
// Empty (the default) means the real clock. Any other value must be an absolute, finite
// timestamptz; it is parsed once, in the check hook, and handed to core/clock as Unix µs.
// Relative words (now, today, ...) are refused: frozen at SET time they would surprise.
// The hook never raises an error, even for input PostgreSQL 15's date parser rejects by raising.
//
// Any role may pin its own session's clock: every generator but Snowflake then uses a state of the
// session's own whose ids carry random bits, so they cannot be the server's. Snowflake ids carry
// none, so the hooks also record whether a superuser set the pin (fixed_clock_guc.hpp), and
// Snowflake generation refuses any other pin.
//
// A pin reaches idgen only from the session that wrote it, as the role it runs as, so that nobody
// re-dates another session's ids (SECURITY.md, "Session settings"):
//  - Sources. Only SET, SET LOCAL and set_config() (PGC_S_SESSION) and the session's own startup
//    options (PGC_S_CLIENT: PGOPTIONS, the startup packet) may pin. The check hook refuses every
//    other source: ALTER DATABASE/ROLE ... SET and CREATE/ALTER FUNCTION ... SET (validated as
//    PGC_S_TEST), ALTER SYSTEM (PGC_S_FILE), the configuration files and the command line, which
//    would pin every session of a database, a role or the server, whoever wrote them (a database's
//    owner may set its settings, a role its own). A database or role setting that exists anyway
//    (0.3.0 took them; a superuser may store one where idgen is not loaded) is refused when a
//    session applies it: PostgreSQL warns and nothing is pinned.
//  - Roles. A SET while the session runs as another role is refused (42501): inside a SECURITY
//    DEFINER function (its SET clause included: PostgreSQL switches the role first), in a
//    security-restricted operation (index expressions, REFRESH MATERIALIZED VIEW and the like, run
//    as a table's owner), or as the table owner a logical replication worker applies changes as.
//    Empty values (unpinning, RESET) are always accepted.
//  - SET clauses. A function's SET idgen.fixed_clock clause runs as the caller with the caller's
//    source, so the check hook cannot tell it from the caller's own SET. The assign hook can: the
//    setting's GUC stack then has a new GUC_SAVE entry (function_set_clause). Such a pin is
//    ignored: the generators keep the real clock inside the function, and SHOW shows the value.
//    SET and SET LOCAL run by the function's body are the caller's statements as any other and
//    pin as usual.
//  - Values set before idgen was loaded. Without shared_preload_libraries PostgreSQL keeps a
//    value set before the module was loaded in this backend, unchecked, and applies it (and the
//    values stacked under it) when the module loads, wherever that happens: inside a SECURITY
//    DEFINER function, or at top level for a value that such a function set. So while the module
//    defines the setting, the role checks are left out, and afterwards each value PostgreSQL
//    re-applied is judged by the role that set it (settle_values_set_before_loading).
//
// Each value's decisions (who set it, whether it pins at all) travel in its GUC "extra" data, so
// a value restored at the end of a function, subtransaction or transaction brings back its own.
// Parallel workers take the leader's values as they are (the leader checked them) and cannot see
// which ones the leader ignores: only comb() reads the clock in a worker (the other time-based
// generators and Snowflake are PARALLEL RESTRICTED), so a parallel query inside a function with a
// SET idgen.fixed_clock clause may make COMB ids on that instant in its workers.
#include "pg/generators/fixed_clock_guc.hpp"

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
#include "access/parallel.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr const char* kName = "idgen.fixed_clock";

char* fixed_clock_text = nullptr;
bool pinned_by_superuser = false;
// While DefineCustomStringVariable applies the values this backend kept before idgen was loaded.
bool defining = false;
// The setting's GUC record, once defined (it never moves then).
config_generic* record = nullptr;

// What the check hook hands to the assign hook (GUC "extra" data, kept with the value, so that a
// value restored at the end of a transaction or function brings back its own decisions).
struct Pin {
  std::int64_t unix_us;
  bool by_superuser;  // set by a superuser: Snowflake may run on it
  bool ignored;       // pins nothing: a function's SET clause, or another role's value
};
IDGEN_STACK_SAFE(Pin);

config_generic* fixed_clock_record() {
  if (record == nullptr) record = find_guc_record(kName);
  return record;
}

// Sources that are this session's own: SET, SET LOCAL, set_config() and a function's SET clause
// (PGC_S_SESSION), and its startup options (PGC_S_CLIENT).
bool from_this_session(GucSource source) {
  return source == PGC_S_SESSION || source == PGC_S_CLIENT;
}

// Refuses (42501) a pin set while the session runs as another role; true when it does.
bool refuse_on_another_roles_behalf() {
  const char* where = nullptr;
  if (InLocalUserIdChange()) {
    where = "within security-definer function";
  } else if (InSecurityRestrictedOperation()) {
    where = "within security-restricted operation";
  } else if (GetUserId() != GetOuterUserId()) {
    where = "while running as another role";
  } else {
    return false;
  }
  GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
  GUC_check_errmsg("cannot set parameter \"%s\" %s", kName, where);
  GUC_check_errdetail(
      "A clock pinned on another role's behalf would re-date the ids of the session that runs "
      "it.");
  GUC_check_errhint(
      "Pin the clock with SET in the session itself, outside any SECURITY DEFINER "
      "function.");
  return true;
}

// Whether a superuser set a pin that arrives now from source. Startup options are the connecting
// role's; a SET is the current role's (not a definer's: the check hook refuses those). A value
// PostgreSQL re-applies while idgen is being defined is judged afterwards, by the role recorded
// with it (settle_values_set_before_loading).
bool set_by_superuser(GucSource source) {
  if (!IsTransactionState()) return false;  // superuser_arg reads the catalog
  if (source == PGC_S_CLIENT) return superuser_arg(GetSessionUserId());
  return !defining && superuser_arg(GetUserId());
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
  // A parallel worker restores the leader's values before its role and security context: the
  // leader checked them, and a worker that refused one would fail the query.
  if (!InitializingParallelWorker) {
    if (!from_this_session(source)) {
      GUC_check_errdetail("idgen.fixed_clock applies to one session only: use SET.");
      if (source == PGC_S_GLOBAL || source == PGC_S_DATABASE || source == PGC_S_USER ||
          source == PGC_S_DATABASE_USER) {
        GUC_check_errhint(
            "Remove the setting with ALTER DATABASE or ALTER ROLE ... RESET "
            "idgen.fixed_clock.");
      }
      return false;
    }
    if (source == PGC_S_SESSION && !defining && refuse_on_another_roles_behalf()) return false;
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
  *pin = {unix_us, set_by_superuser(source), false};
  *extra = pin;
  return true;
}

// Whether the assignment of newval under way is a function's SET clause (GUC_ACTION_SAVE), called
// from the assign hook. PostgreSQL pushes the stack entry of an assignment before it calls the
// hook, and changes the variable after it: a SET clause pushes a GUC_SAVE entry whose prior value
// is still the current one (the very same string). Other assignments under such an entry differ:
// a SET in the function's body turns the entry into GUC_SET; a SET LOCAL there leaves it, but the
// current value is then the clause's; restoring the prior value at the function's end (or a
// subtransaction's) assigns the entry's own prior string. A nested function's clause pushes an
// entry of its own.
bool function_set_clause(const char* newval) {
  const config_generic* guc = fixed_clock_record();
  if (guc == nullptr || guc->stack == nullptr) return false;
  const GucStack* top = guc->stack;
  return top->state == GUC_SAVE && top->prior.val.stringval == fixed_clock_text &&
         top->prior.val.stringval != newval;
}

void apply(const Pin* pin) {
  if (pin == nullptr || pin->ignored) {
    clock::unpin();
    pinned_by_superuser = false;
  } else {
    clock::pin(pin->unix_us);
    pinned_by_superuser = pin->by_superuser;
  }
}

void assign_fixed_clock(const char* newval, void* extra) noexcept {
  auto* pin = static_cast<Pin*>(extra);
  // A SET clause's value is always text the check hook has just parsed, so its extra data is this
  // assignment's own and the decision stays with it.
  if (pin != nullptr && !pin->ignored && function_set_clause(newval)) pin->ignored = true;
  apply(pin);
}

// Judges one value PostgreSQL re-applied when idgen was defined by the role that set it: SET
// records the current role, which is a definer's inside a SECURITY DEFINER function. The value
// pins only if that role is the session's user or its current role, and counts as a superuser's
// only if that role is one.
void settle(void* extra, Oid set_by) {
  auto* pin = static_cast<Pin*>(extra);
  if (pin == nullptr) return;
  pin->by_superuser = IsTransactionState() && superuser_arg(set_by);
  if (set_by != GetSessionUserId() && set_by != GetOuterUserId()) pin->ignored = true;
}

// After DefineCustomStringVariable: PostgreSQL applied the values kept before idgen was loaded
// (the current one and each one stacked under it by functions, subtransactions and SET LOCAL)
// with their source and the role that set them, which the hooks do not see. The session's own
// values (PGC_S_SESSION) are judged here; startup options were judged by the check hook, and
// values from other sources were refused there.
void settle_values_set_before_loading() {
  config_generic* guc = fixed_clock_record();
  if (guc == nullptr) return;
  if (guc->source == PGC_S_SESSION) settle(guc->extra, guc->srole);
  for (GucStack* entry = guc->stack; entry != nullptr; entry = entry->prev) {
    if (entry->source == PGC_S_SESSION) settle(entry->prior.extra, entry->srole);
    if (entry->state == GUC_SET_LOCAL) settle(entry->masked.extra, entry->masked_srole);
  }
  apply(static_cast<const Pin*>(guc->extra));
}

}  // namespace

bool clock_pinned_by_superuser() { return clock::is_pinned() && pinned_by_superuser; }

void define_fixed_clock_guc() {
  defining = true;
  DefineCustomStringVariable(
      kName, "Pins the clock of idgen's time-based generators to this instant (for tests).",
      "Empty means the real clock. Otherwise an absolute timestamptz that every time-based "
      "idgen generator in the session uses as the current time. Only SET in a session, as the "
      "session's own role, pins the clock; a function's SET clause does not.",
      &fixed_clock_text, "", PGC_USERSET, 0, noexcept_callback(check_fixed_clock),
      noexcept_callback(assign_fixed_clock), nullptr);
  defining = false;
  settle_values_set_before_loading();
}

}  // namespace idgen::pg
