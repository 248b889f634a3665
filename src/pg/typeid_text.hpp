// TypeID text (docs/typeid.md), shared by the functions on text and the idgen.typeid type: checked
// prefixes and strict parsing, with the errors users see.
#pragma once

#include "core/type_id.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// Checks a prefix given as a parameter (a constructor's or a lookup's): 22023 naming the rule.
void check_typeid_prefix(const char* data, int len);

// Parses len bytes of TypeID text into *out; false when the text is rejected. With raise, a
// rejected text is reported as 22P02 naming the rule it breaks (and the character at fault): an
// ERROR, or a soft error into escontext when that is an ErrorSaveContext (NULL raises).
bool parse_typeid_text(const char* data, int len, bool raise, Node* escontext,
                       type_id::Parsed* out);

// What a problem means, for errdetail.
const char* typeid_problem_detail(type_id::Problem problem);

}  // namespace idgen::pg
