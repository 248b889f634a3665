// See numeric_u128.hpp. The stored form (numeric.c): after the varlena header, a uint16 header.
//  - top bits 10: short form. Bit 0x2000 negative, bits 0x1F80 display scale, 0x0040 weight sign,
//    0x003F weight; base-10000 digits follow.
//  - top bits 00 / 01: long form, positive / negative; display scale in the low bits; an int16
//    weight follows, then the digits.
//  - top bits 11: NaN or an infinity.
// value = sum digits[i] * 10000^(weight - i); zero has no digits.
#include "pg/numeric_u128.hpp"

#include <cstring>

#include "pg/convert.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/fmgrprotos.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr std::uint16_t kFlagMask = 0xC000;
constexpr std::uint16_t kLongNegative = 0x4000;
constexpr std::uint16_t kShort = 0x8000;
constexpr std::uint16_t kSpecial = 0xC000;
constexpr std::uint16_t kShortNegative = 0x2000;
constexpr std::uint16_t kShortWeightNegative = 0x0040;
constexpr std::uint16_t kShortWeightMask = 0x003F;

}  // namespace

const NumericDomain kDistributedIdDomain = {"DistributedId", kDecimal28Max,
                                            "9999999999999999999999999999"};
const NumericDomain kUint128Domain = {"128-bit id", kU128Max,
                                      "340282366920938463463374607431768211455"};

NumericStatus numeric_to_u128(Numeric num, u128 max, u128* out) {
  const char* base = reinterpret_cast<const char*>(num);
  std::uint16_t header = 0;
  std::memcpy(&header, base + VARHDRSZ, sizeof header);
  if ((header & kFlagMask) == kSpecial) {
    return numeric_is_nan(num) ? NumericStatus::nan : NumericStatus::infinite;
  }
  bool negative = false;
  int weight = 0;
  std::size_t digits_offset = VARHDRSZ + sizeof(std::uint16_t);
  if ((header & kFlagMask) == kShort) {
    negative = (header & kShortNegative) != 0;
    weight = static_cast<int>(header & kShortWeightMask);
    if ((header & kShortWeightNegative) != 0) weight -= kShortWeightMask + 1;
  } else {
    negative = (header & kFlagMask) == kLongNegative;
    std::int16_t long_weight = 0;
    std::memcpy(&long_weight, base + digits_offset, sizeof long_weight);
    weight = long_weight;
    digits_offset += sizeof(std::int16_t);
  }
  const std::size_t size = VARSIZE(num);
  const int ndigits =
      size > digits_offset ? static_cast<int>((size - digits_offset) / sizeof(std::int16_t)) : 0;
  if (negative && ndigits > 0) return NumericStatus::negative;  // zero is never stored negative
  const auto* digits = reinterpret_cast<const std::int16_t*>(base + digits_offset);
  u128 value = 0;
  const Base10000Status status = from_base10000(digits, ndigits, weight, max, &value);
  switch (status) {
    case Base10000Status::not_integer:
      return NumericStatus::not_integer;
    case Base10000Status::too_large:
      return NumericStatus::too_large;
    case Base10000Status::ok:
      break;
  }
  *out = value;
  return NumericStatus::ok;
}

u128 numeric_arg(FunctionCallInfo fcinfo, int n, const NumericDomain& domain) {
  Numeric num = PG_GETARG_NUMERIC(n);
  u128 value = 0;
  const NumericStatus status = numeric_to_u128(num, domain.max, &value);
  if (status == NumericStatus::ok) return value;
  const char* shown =
      clip_for_message(DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num))));
  const bool range = status == NumericStatus::negative || status == NumericStatus::infinite ||
                     status == NumericStatus::too_large;
  ereport(ERROR,
          (errcode(range ? ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE : ERRCODE_INVALID_PARAMETER_VALUE),
           range ? errmsg("%s value %s is out of range", domain.name, shown)
                 : errmsg("%s value %s is not an integer", domain.name, shown),
           errdetail("A %s is an integer from 0 to %s (any display scale: 5.000 is 5).",
                     domain.name, domain.max_text),
           // A fraction almost always means a client read the id as a floating-point number,
           // which has already lost its last digits: say how to keep them.
           range ? 0
                 : errhint("Send ids as text of their digits (or the driver's decimal type), "
                           "never as a floating-point number: a float keeps 15 to 17 digits.")));
  pg_unreachable();
}

Datum numeric_datum(u128 v) {
  // Allocated for the most digits a u128 has (26 bytes), the digits written in place, the size set
  // after: a DistributedId's 7 digits (20 bytes) take the same 32-byte chunk of palloc's anyway.
  constexpr std::size_t kDigitsOffset = VARHDRSZ + sizeof(std::uint16_t);
  char* result = static_cast<char*>(
      palloc(kDigitsOffset + static_cast<std::size_t>(kMaxBase10000Digits) * sizeof(std::int16_t)));
  int weight = 0;
  const int ndigits =
      to_base10000(v, reinterpret_cast<std::int16_t*>(result + kDigitsOffset), &weight);
  SET_VARSIZE(result, kDigitsOffset + static_cast<std::size_t>(ndigits) * sizeof(std::int16_t));
  // Short form, positive, display scale 0; the weight of a u128 is at most 9.
  const auto header = static_cast<std::uint16_t>(kShort | (weight & kShortWeightMask));
  std::memcpy(result + VARHDRSZ, &header, sizeof header);
  return PointerGetDatum(result);
}

}  // namespace idgen::pg
