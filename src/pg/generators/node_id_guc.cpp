// idgen.node_id (see node_id_guc.hpp).
#include "pg/generators/node_id_guc.hpp"

#include "core/snowflake.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr int kUnset = -1;
int node_id = kUnset;

}  // namespace

int configured_node_id() { return node_id; }

void define_node_id_guc() {
  DefineCustomIntVariable(
      "idgen.node_id", "This server's node number in Snowflake ids (0 .. 1023).",
      "Each server that makes Snowflake ids needs a number of its own; -1 "
      "(the default) leaves it unset, and idgen.snowflake() refuses to run. "
      "Only superusers can change it.",
      &node_id, kUnset, kUnset, snowflake::kMaxNode, PGC_SUSET, 0, nullptr, nullptr, nullptr);
}

}  // namespace idgen::pg
