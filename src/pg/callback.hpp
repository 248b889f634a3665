// noexcept_callback(f): hands PostgreSQL a function it will call directly (a hook, a GUC check,
// assign or show hook, a cache invalidation callback, a sort-support comparator), accepting only
// a function declared noexcept. PostgreSQL's C frames sit above such a function; an exception
// leaving it would unwind through them, so the compiler, not a comment, checks the promise.
// (test/lint/glue_rules.py requires that every such hand-over in src/pg goes through here.)
#pragma once

namespace idgen::pg {

// Only a pointer to a noexcept function binds to the parameter; the result converts to the plain
// function pointer type PostgreSQL declares.
template <typename Result, typename... Args>
constexpr auto noexcept_callback(Result (*f)(Args...) noexcept) noexcept -> Result (*)(Args...) {
  return f;
}

}  // namespace idgen::pg
