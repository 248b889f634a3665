// The keys of public identities (docs/public-id.md): the configured key ring, read from the
// file that idgen.public_id_key_file names (one key per line: the current key, then older keys
// that only decode), and keys passed explicitly as bytea arguments.
//
// Each is held as an AesBlockCipher (expanded schedules) per backend and rebuilt only when its
// key changes: the configured ones after a configuration reload, an explicit one when a call
// passes a different key. Neither a key nor anything derived from it ever reaches a message.
#pragma once

#include <cstddef>

#include "core/aes_block.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// The cipher under the configured key, read from the key file on first use after the backend
// started or the configuration was reloaded. Raises when no usable key is configured, saying
// what is wrong (missing file, ownership, permissions, base64, length) but never quoting it.
const AesBlockCipher& configured_public_id_cipher();

// The number of keys in the configured ring (1 to public_id::kMaxRingKeys), read as
// configured_public_id_cipher() reads it, and raising as it does.
std::size_t configured_public_id_ring();
// Key i of the configured ring (0: the current key); i below what configured_public_id_ring()
// returned in this call.
const AesBlockCipher& configured_public_id_key(std::size_t i);

// The cipher under argument n (bytea, not NULL); raises 22023 unless it has 16, 24 or 32 bytes.
const AesBlockCipher& explicit_public_id_cipher(FunctionCallInfo fcinfo, int n);

}  // namespace idgen::pg
