// See ledger/canonical_json.hpp. jsonb keeps object keys shorter-first, so every object's pairs are
// collected and sorted bytewise here.
//
// The walk is a loop over an explicit stack rather than a recursion, so it handles any depth that
// PostgreSQL stores (a jsonb built with a large max_stack_depth, or restored from a dump, can be
// nested far deeper than a recursive walk of this backend's stack could follow), and a single
// deep row cannot make a whole-table checksum query fail. Its stacks live in palloc'd memory:
// an error (or a cancel, checked every 4096 values) frees them with the memory context.
#include "pg/ledger/canonical_json.hpp"

#include <algorithm>
#include <cstring>

#include "core/json_string.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "miscadmin.h"
#include "utils/fmgrprotos.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

struct TextSink {
  StringInfo out;
  void append(const char* p, std::size_t n) { appendBinaryStringInfo(out, p, static_cast<int>(n)); }
  void push(char c) { appendStringInfoChar(out, c); }
};
IDGEN_STACK_SAFE(TextSink);

// A child of a jsonb container, read straight from the on-disk format (utils/jsonb.h): its JEntry
// and where its data lies. Walking the JEntry arrays directly, with JBE_ADVANCE_OFFSET, visits
// each container once without allocating an iterator per level.
struct Child {
  JEntry entry;
  const char* data;  // start of the child's data (after any alignment padding)
  std::uint32_t len;
};
IDGEN_STACK_SAFE(Child);

struct Pair {
  const char* key;  // UTF-8
  std::size_t key_len;
  Child value;
};
IDGEN_STACK_SAFE(Pair);

bool key_less(const Pair& a, const Pair& b) {
  const int c = std::memcmp(a.key, b.key, std::min(a.key_len, b.key_len));
  return c != 0 ? c < 0 : a.key_len < b.key_len;
}

// A stack of trivially copyable T: the first N in place, then palloc'd (huge allocations allowed,
// so depth is bounded by memory, not by MaxAllocSize). Trivially destructible on purpose (asserted
// for each use): the owner calls release(), and an error's longjmp leaves the memory to its
// context.
template <typename T, int N>
class PallocStack {
 public:
  int size() const { return size_; }
  T& operator[](int i) { return items_[i]; }
  T& top() { return items_[size_ - 1]; }
  // Makes room for n more items and returns the first; size() grows by n.
  T* grow(int n) {
    if (size_ + n > capacity_) reserve(size_ + n);
    T* first = items_ + size_;
    size_ += n;
    return first;
  }
  void shrink(int n) { size_ -= n; }
  void release() {
    if (items_ != local_) pfree(items_);
  }

 private:
  void reserve(int needed) {
    int capacity = capacity_;
    while (capacity < needed) capacity *= 2;
    const Size bytes = sizeof(T) * static_cast<Size>(capacity);
    if (items_ == local_) {
      items_ = static_cast<T*>(MemoryContextAllocHuge(CurrentMemoryContext, bytes));
      std::memcpy(static_cast<void*>(items_), local_, sizeof(T) * size_);
    } else {
      items_ = static_cast<T*>(repalloc_huge(items_, bytes));
    }
    capacity_ = capacity;
  }

  T local_[N];
  T* items_ = local_;
  int size_ = 0;
  int capacity_ = N;
};

// An open container: where its children are, how far the walk got, and for an object where its
// sorted pairs lie on the pair stack.
struct Frame {
  const JsonbContainer* container;
  const char* base;      // start of the children's data
  std::uint32_t offset;  // arrays: where the next child's data starts
  int count;             // elements, or pairs
  int next;              // index of the next element or pair to write
  int first_pair;        // objects: index of the first pair on the pair stack
  bool object;
  bool raw_scalar;  // a top-level scalar, stored as a one-element array, written bare
};
IDGEN_STACK_SAFE(Frame);
IDGEN_STACK_SAFE(PallocStack<Frame, 32>);
IDGEN_STACK_SAFE(PallocStack<Pair, 64>);

// The i-th child of a container, given that `offset` is where it starts; advances `offset`.
Child child_at(const JsonbContainer* container, const char* base, int i, std::uint32_t* offset) {
  const JEntry e = container->children[i];
  const std::uint32_t start = *offset;
  JBE_ADVANCE_OFFSET(*offset, e);
  Child c{e, base + start, *offset - start};
  // Numerics and containers start at the next 4-byte boundary of the data (padding counts in
  // their length), as jsonb writes them.
  if (JBE_ISNUMERIC(e) || JBE_ISCONTAINER(e)) c.data = base + INTALIGN(start);
  return c;
}

template <typename Sink>
void write_string(Sink& sink, const char* s, std::uint32_t len) {
  const Utf8Bytes utf8 = utf8_bytes(s, static_cast<int>(len));
  json_string::write(sink, reinterpret_cast<const char*>(utf8.data), utf8.len);
}

template <typename Sink>
void write_scalar(Sink& sink, const Child& child) {
  const JEntry e = child.entry;
  if (JBE_ISSTRING(e)) {
    write_string(sink, child.data, child.len);
  } else if (JBE_ISNUMERIC(e)) {
    const auto numeric = reinterpret_cast<Numeric>(const_cast<char*>(child.data));
    char* digits = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(numeric)));
    sink.append(digits, std::strlen(digits));
    pfree(digits);
  } else if (JBE_ISBOOL_TRUE(e)) {
    sink.append("true", 4);
  } else if (JBE_ISBOOL_FALSE(e)) {
    sink.append("false", 5);
  } else {
    sink.append("null", 4);
  }
}

class Walker {
 public:
  // Opens a container: writes its bracket and pushes its frame (with its pairs, sorted).
  template <typename Sink>
  void open(Sink& sink, const JsonbContainer* container) {
    const std::uint32_t header = container->header;
    const int count = static_cast<int>(header & JB_CMASK);
    const bool object = (header & JB_FOBJECT) != 0;
    const char* base =
        reinterpret_cast<const char*>(&container->children[object ? 2 * count : count]);
    int first_pair = 0;
    if (object) {
      first_pair = pairs_.size();
      Pair* pairs = pairs_.grow(count);
      std::uint32_t offset = 0;
      for (int i = 0; i < count; ++i) {  // keys first, then values, in the same order
        const Child key = child_at(container, base, i, &offset);
        const Utf8Bytes utf8 = utf8_bytes(key.data, static_cast<int>(key.len));
        pairs[i].key = reinterpret_cast<const char*>(utf8.data);
        pairs[i].key_len = utf8.len;
      }
      for (int i = 0; i < count; ++i)
        pairs[i].value = child_at(container, base, count + i, &offset);
      // jsonb keeps keys shorter-first, which is already bytewise order whenever no longer key
      // sorts before a shorter one (common for short ASCII keys); only then is a sort needed.
      if (!std::is_sorted(pairs, pairs + count, key_less))
        std::sort(pairs, pairs + count, key_less);
      sink.push('{');
    }
    const bool raw_scalar = !object && (header & JB_FSCALAR) != 0;
    if (!object && !raw_scalar) sink.push('[');
    Frame* f = frames_.grow(1);
    f->container = container;
    f->base = base;
    f->offset = 0;
    f->count = count;
    f->next = 0;
    f->first_pair = first_pair;
    f->object = object;
    f->raw_scalar = raw_scalar;
  }

  // Writes the next child of the innermost open container, or closes it when it has none left.
  // Returns false when the outermost container has been closed.
  template <typename Sink>
  bool step(Sink& sink) {
    Frame& f = frames_.top();
    if (f.next == f.count) {
      if (f.object) {
        sink.push('}');
        pairs_.shrink(f.count);
      } else if (!f.raw_scalar) {
        sink.push(']');
      }
      frames_.shrink(1);
      return frames_.size() > 0;
    }
    if (f.next > 0) sink.push(',');
    Child child;
    if (f.object) {
      const Pair& pair = pairs_[f.first_pair + f.next];
      json_string::write(sink, pair.key, pair.key_len);
      sink.push(':');
      child = pair.value;
    } else {
      child = child_at(f.container, f.base, f.next, &f.offset);
    }
    ++f.next;  // f is not used past here: open() may move the frame stack
    // A cancel is honoured every few thousand values (within about a millisecond): checking per
    // value costs measurably more on the ledger's many small events.
    if ((++steps_ & (kStepsPerInterruptCheck - 1)) == 0) CHECK_FOR_INTERRUPTS();
    if (JBE_ISCONTAINER(child.entry)) {
      open(sink, reinterpret_cast<const JsonbContainer*>(child.data));
    } else {
      write_scalar(sink, child);
    }
    return true;
  }

  void release() {
    frames_.release();
    pairs_.release();
  }

 private:
  static constexpr std::uint32_t kStepsPerInterruptCheck = 4096;

  PallocStack<Frame, 32> frames_;
  PallocStack<Pair, 64> pairs_;
  std::uint32_t steps_ = 0;
};
IDGEN_STACK_SAFE(Walker);

template <typename Sink>
void write_canonical(Sink& sink, Jsonb* value) {
  Walker walker;
  walker.open(sink, &value->root);
  while (walker.step(sink)) {
  }
  walker.release();
}

}  // namespace

void canonical_json_crc(crc32c::Stream& stream, Jsonb* value) { write_canonical(stream, value); }

void canonical_json_text(StringInfo out, Jsonb* value) {
  TextSink sink{out};
  write_canonical(sink, value);
}

}  // namespace idgen::pg
