// ULID text (docs/ulid.md), shared by the functions on uuid and the idgen.ulid type: strict
// decoding with the errors users see, and the 26 upper-case characters.
#pragma once

#include "core/uuid.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// Decodes len bytes of ULID text (either case) into *out; false when the text is rejected. With
// raise, a rejected text is reported as 22P02 naming the character (or the length, or a first
// character above 7): an ERROR, or a soft error into escontext when that is an ErrorSaveContext
// (a type's input function passes its fcinfo->context; NULL raises).
bool decode_ulid_text(const char* data, int len, bool raise, Node* escontext, Uuid* out);

// The upper-case ULID text of a value, palloc'd and NUL-terminated.
char* ulid_cstring(const Uuid& id);

}  // namespace idgen::pg
