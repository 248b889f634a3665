// IDGEN_STACK_SAFE(T): the compiler's proof that T may live on a stack PostgreSQL longjmps across.
//
// PostgreSQL reports errors with longjmp, which skips destructors: a glue function that holds an
// object with a destructor (one that frees memory, wipes a key, releases a lock) and then calls
// anything that may ereport leaks or corrupts what the destructor guarded. So every type that
// glue code may keep on its stack is trivially destructible, and says so with this assertion
// beside its definition (the lint check test/lint/glue_rules.py requires one for every struct and
// class in src/core and src/pg). A type that cannot be trivially destructible is marked
// `// not stack-safe: <why>` at its definition instead, and glue reaches it only by reference or
// through a static holder.
#pragma once

#include <type_traits>

// Variadic so that a template's arguments may contain commas: IDGEN_STACK_SAFE(Stack<Frame, 8>).
#define IDGEN_STACK_SAFE(...)                                                    \
  static_assert(std::is_trivially_destructible_v<__VA_ARGS__>, #__VA_ARGS__      \
                " must be trivially destructible: glue code keeps it on stacks " \
                "that PostgreSQL's errors longjmp across, skipping destructors")
