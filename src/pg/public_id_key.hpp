// The keys of public identities (docs/public-id.md): the configured key, read from the
// file that idgen.public_id_key_file names, and keys passed explicitly as bytea arguments.
//
// Each is held as an AesBlockCipher (expanded schedules) per backend and rebuilt only when its
// key changes: the configured one after a configuration reload, an explicit one when a call
// passes a different key. Neither the key nor anything derived from it ever reaches a message.
#pragma once

#include "core/aes_block.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// The cipher under the configured key, read from the key file on first use after the backend
// started or the configuration was reloaded. Raises when no usable key is configured, saying
// what is wrong (missing file, ownership, permissions, base64, length) but never quoting it.
const AesBlockCipher& configured_public_id_cipher();

// The cipher under argument n (bytea, not NULL); raises 22023 unless it has 16, 24 or 32 bytes.
const AesBlockCipher& explicit_public_id_cipher(FunctionCallInfo fcinfo, int n);

}  // namespace idgen::pg
