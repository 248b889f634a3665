// idgen.library_version: the version of the idgen library this process runs, read-only (as
// server_version is). Anyone can SHOW it on any server, a standby included, whatever version the
// databases' SQL objects are; on a server whose idgen is older than 0.4.0 it is unknown
// (docs/upgrading.md). Every install and update script from 0.4.0 on compares it with the version
// it makes (the first block of sql/idgen.sql), so that a library older than the script (one a
// server preloaded before the new version was installed, or that the session had loaded)
// refuses with what to do, not with PostgreSQL's "could not find function".
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

char* library_version = nullptr;

}  // namespace

void define_library_version_guc() {
  DefineCustomStringVariable(
      "idgen.library_version", "The version of the idgen library this server runs.",
      "Set by the library itself (IDGEN_VERSION, the control file's version when it was built); "
      "the extension's version in a database is pg_extension.extversion.",
      &library_version, IDGEN_VERSION, PGC_INTERNAL, GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
      nullptr, nullptr, nullptr);
}

}  // namespace idgen::pg
