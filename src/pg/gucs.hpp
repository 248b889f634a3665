// Registration of idgen's configuration parameters, called once from _PG_init (module.cpp).
#pragma once

namespace idgen::pg {

void define_fixed_clock_guc();         // idgen.fixed_clock (generators/fixed_clock_guc.cpp)
void define_random_seed_guc();         // idgen.test_random_seed (generators/random_seed_guc.cpp)
void define_public_id_key_file_guc();  // idgen.public_id_key_file (public_id_key.cpp)
void define_ledger_max_lead_guc();     // idgen.ledger_max_lead (ledger/lead_guc.cpp)
void define_node_id_guc();             // idgen.node_id (generators/node_id_guc.cpp)
void define_mark_max_lead_guc();       // idgen.mark_max_lead (generators/mark_max_lead_guc.cpp)
void define_library_version_guc();     // idgen.library_version (library_version_guc.cpp)
void define_standby_gate_guc();        // idgen.standbys_replay_marks (generators/standby_gate.cpp)
void define_log_lead_threshold_guc();  // idgen.log_lead_threshold
                                       // (generators/log_lead_threshold_guc.cpp)

}  // namespace idgen::pg
