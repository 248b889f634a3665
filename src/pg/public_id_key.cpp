// See public_id_key.hpp: idgen.public_id_key_file and the per-backend key caches.
//
// Why a file and not a setting that holds the key: PostgreSQL copies setting values to the server
// log on reload, to pg_db_role_setting, and (with SQL text) to statement logs
// (docs/public-id.md, "Who can use the key"). The setting holds only a path; the file is checked
// like ssl_key_file (owned by the server's user, no group or world access) and read by each backend
// on its first use after a reload. The file may hold several keys, one per line (a key ring: the
// first encodes, all decode), so a key can be rotated without breaking the public ids already
// handed out. The assign hook, which PostgreSQL runs for every setting of the
// configuration files on each reload, drops the cached key, so even long-lived backends use a
// rotated key for their very next call.
#include "pg/public_id_key.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "core/base64.hpp"
#include "core/public_id.hpp"
#include "core/stack_safe.hpp"
#include "pg/callback.hpp"
#include "pg/convert.hpp"
#include "pg/gucs.hpp"
#include "pg/immortal.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

// A key file holds base64 of at most 32 bytes (44 characters) per key, at most
// public_id::kMaxRingKeys keys, and white space; anything much larger is not a key file, and is
// not read.
constexpr std::size_t kMaxKeyFileBytes = 1024;

char* key_file_path = nullptr;

// The configured ring: configured_count keys, 0 until the file has been read.
Immortal<AesBlockCipher> configured_ring[public_id::kMaxRingKeys];
std::size_t configured_count = 0;
Immortal<AesBlockCipher> explicit_cipher;

void forget_configured_ring() noexcept {
  for (Immortal<AesBlockCipher>& key : configured_ring) key.get().clear();
  configured_count = 0;
}

// Runs on every assignment, including each reload that re-reads the setting from the
// configuration files: the keys, or the file's contents, may have changed.
void assign_key_file(const char*, void*) noexcept { forget_configured_ring(); }

using RingKeys = std::uint8_t[public_id::kMaxRingKeys][AesBlockCipher::kMaxKeyLength];

// What reading the key file found; read_key_file itself never raises, so it can wipe every copy
// of the key text before the caller reports a problem.
struct KeyFileRead {
  enum class Problem { none, unset, open, not_regular, owner, mode, too_large, read } problem;
  int error_number;              // open, read
  long long size;                // too_large
  public_id::KeyRingParse ring;  // none: the parse result (its status may still be a problem)
};
IDGEN_STACK_SAFE(KeyFileRead);

KeyFileRead read_key_file(const char* path, RingKeys keys,
                          std::size_t lengths[public_id::kMaxRingKeys]) {
  KeyFileRead r{KeyFileRead::Problem::none, 0, 0, {}};
  if (path == nullptr || path[0] == '\0') {
    r.problem = KeyFileRead::Problem::unset;
    return r;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.problem = KeyFileRead::Problem::open;
    r.error_number = errno;
    return r;
  }
  struct stat st {};
  char text[kMaxKeyFileBytes + 1];
  std::size_t len = 0;
  if (fstat(fd, &st) != 0) {
    r.problem = KeyFileRead::Problem::open;
    r.error_number = errno;
  } else if (!S_ISREG(st.st_mode)) {
    r.problem = KeyFileRead::Problem::not_regular;
  } else if (st.st_uid != geteuid()) {
    r.problem = KeyFileRead::Problem::owner;
  } else if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    r.problem = KeyFileRead::Problem::mode;
  } else {
    // Read one byte more than allowed, so a file that grew after fstat is still caught.
    while (len < sizeof text) {
      const ssize_t got = read(fd, text + len, sizeof text - len);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        r.problem = KeyFileRead::Problem::read;
        r.error_number = errno;
        break;
      }
      if (got == 0) break;
      len += static_cast<std::size_t>(got);
    }
    if (r.problem == KeyFileRead::Problem::none && len > kMaxKeyFileBytes) {
      r.problem = KeyFileRead::Problem::too_large;
      r.size = static_cast<long long>(st.st_size);
    } else if (r.problem == KeyFileRead::Problem::none) {
      r.ring = public_id::parse_key_ring(text, len, keys, lengths);
    }
  }
  close(fd);
  OPENSSL_cleanse(text, sizeof text);
  return r;
}

constexpr const char* kKeyHint =
    "The file must hold the base64 of a 16, 24 or 32-byte AES key, for example the output of "
    "\"openssl rand -base64 32\".";

// Names the key at fault in a file of several keys (a CONTEXT line); nothing in a file of one.
int key_number_context(const public_id::KeyRingParse& ring) {
  // errcontext expands to a comma expression, so it gets a statement of its own.
  if (!ring.one_line) errcontext("key %zu of the public id key file", ring.bad_key);
  return 0;
}
// Raises the error for a key file that yielded no key. The client sees what is wrong; the path
// (hidden from non-superusers like the setting itself) goes to the server log only.
[[noreturn]] void report(const KeyFileRead& r) {
  using Problem = KeyFileRead::Problem;
  const char* path = key_file_path;
  switch (r.problem) {
    case Problem::unset:
      ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                      errmsg("no public id key is configured"),
                      errhint("Write the key to a file only the server's operating-system user "
                              "can read, set idgen.public_id_key_file to its path and reload "
                              "the configuration, or pass the key as an argument.")));
      break;
    case Problem::open:
    case Problem::read:
      errno = r.error_number;
      ereport(ERROR,
              (errcode_for_file_access(), errmsg("could not read the public id key file: %m"),
               errdetail_log("idgen.public_id_key_file is \"%s\".", path)));
      break;
    case Problem::not_regular:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                      errmsg("public id key file is not a regular file"),
                      errdetail_log("idgen.public_id_key_file is \"%s\".", path)));
      break;
    case Problem::owner:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                      errmsg("public id key file is not owned by the database server's "
                             "operating-system user"),
                      errdetail_log("idgen.public_id_key_file is \"%s\".", path),
                      errhint("Change its owner to the user the server runs as.")));
      break;
    case Problem::mode:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                      errmsg("public id key file has group or world access"),
                      errdetail("File must have permissions u=rw (0600) or less."),
                      errdetail_log("idgen.public_id_key_file is \"%s\"; it must have "
                                    "permissions u=rw (0600) or less.",
                                    path)));
      break;
    case Problem::too_large:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                      errmsg("public id key file is too large to hold a key"),
                      errdetail("It has %lld bytes; a key file holds at most %zu.", r.size,
                                kMaxKeyFileBytes),
                      errhint("%s", kKeyHint)));
      break;
    case Problem::none:
      break;
  }
  const public_id::KeyRingParse& ring = r.ring;
  switch (ring.key.status) {
    case public_id::KeyStatus::empty:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("public id key file is empty"),
                      errhint("%s", kKeyHint)));
      break;
    case public_id::KeyStatus::not_base64: {
      const base64::Base64Result& b = ring.key.base64;
      const std::size_t at = b.position + 1;
      ereport(ERROR,
              (errcode(ERRCODE_CONFIG_FILE_ERROR),
               errmsg("public id key file does not hold valid base64"),
               b.status == base64::Base64Status::bad_length
                   ? errdetail("Base64 text comes in groups of 4 characters, padded with \"=\".")
               : b.status == base64::Base64Status::bad_padding
                   ? errdetail("Character %zu leaves bits set that must be zero: the text is "
                               "not canonical base64.",
                               at)
                   : errdetail("Character %zu is not in the base64 alphabet (A-Z, a-z, 0-9, "
                               "+, /), or is padding out of place.",
                               at),
               errhint("%s", kKeyHint), key_number_context(ring)));
      break;
    }
    case public_id::KeyStatus::wrong_length:
      ereport(ERROR,
              (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("public id key has the wrong length"),
               errdetail("It decodes to %zu bytes; an AES key has 16, 24 or 32 bytes.",
                         ring.key.length),
               errhint("%s", kKeyHint), key_number_context(ring)));
      break;
    case public_id::KeyStatus::too_many:
      ereport(ERROR,
              (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("public id key file holds too many keys"),
               errdetail("It holds %zu keys; a key file holds at most %zu: the current key "
                         "on the first line, then the older keys that still decode.",
                         ring.count, public_id::kMaxRingKeys),
               errhint("Remove the oldest keys once their public ids need not decode.")));
      break;
    case public_id::KeyStatus::duplicate:
      ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                      errmsg("public id key file holds the same key twice"),
                      errdetail("Key %zu repeats key %zu.", ring.bad_key, ring.same_as),
                      errhint("List each key once: the current key on the first line, then the "
                              "older keys that still decode.")));
      break;
    case public_id::KeyStatus::ok:
      break;
  }
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("public id key file check failed")));
  pg_unreachable();
}

[[noreturn]] void report_cipher_failure() {
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                  errmsg("OpenSSL could not set up AES for the public id key")));
  pg_unreachable();
}

}  // namespace

std::size_t configured_public_id_ring() {
  if (configured_count != 0) return configured_count;
  RingKeys keys;
  std::size_t lengths[public_id::kMaxRingKeys] = {};
  const KeyFileRead r = read_key_file(key_file_path, keys, lengths);
  const bool usable =
      r.problem == KeyFileRead::Problem::none && r.ring.key.status == public_id::KeyStatus::ok;
  bool keyed = usable;
  for (std::size_t i = 0; keyed && i < r.ring.count; ++i) {
    keyed = configured_ring[i].get().set_key(keys[i], lengths[i]);
  }
  OPENSSL_cleanse(keys, sizeof keys);
  if (!usable) report(r);
  if (!keyed) {
    forget_configured_ring();
    report_cipher_failure();
  }
  configured_count = r.ring.count;
  return configured_count;
}

const AesBlockCipher& configured_public_id_key(std::size_t i) {
  if (i >= configured_count) elog(ERROR, "public id key %zu of %zu requested", i, configured_count);
  return configured_ring[i].get();
}

const AesBlockCipher& configured_public_id_cipher() {
  configured_public_id_ring();
  return configured_ring[0].get();
}

namespace {

// The length of the key that a wrong-length key argument is the base64 text of (a key file's
// content pasted as a string), or 0. Only the length is kept: the decoded bytes are wiped.
std::size_t base64_key_length(const std::uint8_t* bytes, std::size_t len) {
  std::uint8_t decoded[32];
  const base64::Base64Result r =
      base64::decode(reinterpret_cast<const char*>(bytes), len, decoded, sizeof decoded);
  OPENSSL_cleanse(decoded, sizeof decoded);
  return r.status == base64::Base64Status::ok && is_aes_key_length(r.decoded) ? r.decoded : 0;
}

}  // namespace

const AesBlockCipher& explicit_public_id_cipher(FunctionCallInfo fcinfo, int n) {
  require_arg(fcinfo, n, "key");
  bytea* key = PG_GETARG_BYTEA_PP(n);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(key));
  const std::size_t len = VARSIZE_ANY_EXHDR(key);
  AesBlockCipher& cipher = explicit_cipher.get();
  if (cipher.holds_key(bytes, len)) return cipher;
  if (!is_aes_key_length(len)) {
    const std::size_t base64_of = base64_key_length(bytes, len);
    ereport(
        ERROR,
        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("key must be 16, 24 or 32 bytes long"),
         base64_of != 0
             ? errdetail("It has %zu bytes: the base64 text of a %zu-byte key.", len, base64_of)
             : errdetail("It has %zu bytes.", len),
         base64_of != 0 ? errhint("Pass the key's bytes, not its text: decode('...', 'base64').")
                        : 0));
  }
  if (!cipher.set_key(bytes, len)) report_cipher_failure();
  return cipher;
}

void define_public_id_key_file_guc() {
  DefineCustomStringVariable(
      "idgen.public_id_key_file", "Path of the file that holds the public id keys (base64).",
      "The file must hold the base64 of a 16, 24 or 32-byte AES key per line (the first encodes, "
      "all decode), be owned by the server's operating-system user and have no group or world "
      "access. A relative path is relative to the data directory. Backends read it on first use "
      "after each configuration reload.",
      &key_file_path, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, nullptr,
      noexcept_callback(assign_key_file), nullptr);
}

}  // namespace idgen::pg
