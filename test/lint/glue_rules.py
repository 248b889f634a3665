#!/usr/bin/env python3
"""The glue's boundary rules that the compiler cannot see (CONTRIBUTING.md, "Glue files").

PostgreSQL reports errors with longjmp, which skips C++ destructors, and calls some of our
functions from its own C frames. The compiler already refuses a throw or a try in src/pg (it is
built with -fno-exceptions, but for src/pg/error_bridge.cpp), a non-noexcept function handed to
noexcept_callback, and an IDGEN_STACK_SAFE type that has a destructor. This check covers the rest:

  stack-safe    every struct and class defined in src/core/*.hpp and src/pg carries
                IDGEN_STACK_SAFE(Name) in the same file, or is marked `// not stack-safe: why`
                just above its definition;
  not-on-stack  a type marked not stack-safe appears in src/pg only by reference (Name&),
                qualified (Name::) or as a template argument (<Name>) of a static holder;
  std           src/pg names from std:: only what is trivially destructible and cannot throw (the
                list below): no std::string, vector, unique_ptr, function, streams or locks;
  callbacks     every function handed to PostgreSQL to call later (hook variables, GUC hooks,
                cache callbacks, exit callbacks, sort-support fields) goes through
                noexcept_callback(...);
  one-callback  src/pg registers at most one relcache callback and one syscache callback: a
                process has room for 10 relcache callbacks, shared with every other module and
                with logical decoding (src/pg/cache_invalidation.hpp);
  server-headers  a server header (#include "x.h") in src/pg sits between
                IDGEN_BEGIN_SERVER_HEADERS and IDGEN_END_SERVER_HEADERS: outside them its
                functions get C++ names, which compile and link but fail when the server loads
                the module.

Usage: glue_rules.py [ROOT]   (ROOT defaults to the repository holding this file)
Prints each violation as file:line: rule: text and exits 1 when there is any.
"""
import pathlib
import re
import sys

# Names from std:: that glue code may use: fixed-width integers, C string and memory functions,
# and header-only templates that hold nothing needing a destructor for the types glue gives them.
STD_ALLOWED = {
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "size_t", "ptrdiff_t", "memcpy", "memcmp", "memset", "memmove", "memchr", "strlen", "strcmp",
    "strncmp", "strchr", "isspace", "isdigit", "isxdigit", "isalpha", "tolower", "toupper",
    "malloc", "free", "min", "max", "clamp", "swap", "sort", "is_sorted", "optional", "nullopt",
    "array", "numeric_limits", "is_trivially_destructible_v", "is_trivially_copyable_v",
}
# The error bridge is the one place that catches exceptions, so it names them.
STD_ALLOWED_IN = {"error_bridge.cpp": {"exception"}}

HOOK_ASSIGNMENT = re.compile(r"\b(\w+_hook)\s*=\s*([^;]*);")
SORT_SUPPORT_FIELD = re.compile(
    r"->\s*(comparator|abbrev_converter|abbrev_abort|abbrev_full_comparator)\s*=\s*([^;]*);")
# Registration functions: name -> indexes of their function-pointer arguments (negative from the
# end: the check, assign and show hooks of DefineCustom*Variable).
REGISTRATIONS = {
    "DefineCustomBoolVariable": (-3, -2, -1),
    "DefineCustomIntVariable": (-3, -2, -1),
    "DefineCustomRealVariable": (-3, -2, -1),
    "DefineCustomStringVariable": (-3, -2, -1),
    "DefineCustomEnumVariable": (-3, -2, -1),
    "CacheRegisterRelcacheCallback": (0,),
    "CacheRegisterSyscacheCallback": (1,),
    "on_shmem_exit": (0,),
    "before_shmem_exit": (0,),
    "on_proc_exit": (0,),
    "RegisterXactCallback": (0,),
    "RegisterSubXactCallback": (0,),
    "RegisterResourceReleaseCallback": (0,),
}
TYPE_DEFINITION = re.compile(
    r"^(?P<indent>[ \t]*)(?:template\s*<[^>]*>\s*)?(?:struct|class)\s+(?P<name>\w+)\s*"
    r"(?:final\s*)?(?::[^{;]*)?\{", re.M)


def strip_comments_and_strings(text):
    """The code with comments and string and character literals blanked, lines kept in place."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def call_arguments(code, open_paren):
    """The top-level arguments of the call whose '(' is at open_paren."""
    depth, start, args = 0, open_paren + 1, []
    for i in range(open_paren, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(code[start:i].strip())
                return args
        elif c == "," and depth == 1:
            args.append(code[start:i].strip())
            start = i + 1
    return args


def handed_over_properly(arg):
    arg = " ".join(arg.split())
    return arg in ("nullptr", "NULL") or arg.startswith("noexcept_callback(") or \
        arg.startswith("idgen::pg::noexcept_callback(")


def check(root):
    problems = []

    def report(path, line, rule, what):
        problems.append(f"{path.relative_to(root)}:{line}: {rule}: {what}")

    core_headers = sorted((root / "src/core").glob("*.hpp"))
    glue = sorted((root / "src/pg").rglob("*.[ch]pp"))
    not_stack_safe = set()

    for path in core_headers + glue:
        raw = path.read_text()
        code = strip_comments_and_strings(raw)
        raw_lines = raw.split("\n")
        for m in TYPE_DEFINITION.finditer(code):
            name, line = m.group("name"), line_of(code, m.start("name"))
            above = raw_lines[max(0, line - 4):line]
            if any("not stack-safe:" in text for text in above):
                not_stack_safe.add(name)
                continue
            if not re.search(r"\bIDGEN_STACK_SAFE\((?:\w+::)*" + name + r"\b", code):
                report(path, line, "stack-safe",
                       f"{name} has no IDGEN_STACK_SAFE({name}) (or a `// not stack-safe:` mark)")

    for path in glue:
        raw = path.read_text()
        inside = False
        for number, text in enumerate(raw.split("\n"), 1):
            stripped = text.strip()
            if stripped.startswith("IDGEN_BEGIN_SERVER_HEADERS"):
                inside = True
            elif stripped.startswith("IDGEN_END_SERVER_HEADERS"):
                inside = False
            elif re.match(r'#\s*include\s+"[^"]+\.h"', stripped) and not inside:
                report(path, number, "server-headers",
                       f"{stripped} outside IDGEN_BEGIN_SERVER_HEADERS .. IDGEN_END_SERVER_HEADERS")
        code = strip_comments_and_strings(raw)
        allowed = STD_ALLOWED | STD_ALLOWED_IN.get(path.name, set())
        for m in re.finditer(r"\bstd::(\w+)", code):
            if m.group(1) not in allowed:
                report(path, line_of(code, m.start()), "std",
                       f"std::{m.group(1)} is not on the glue's list of stack-safe std names")
        for name in sorted(not_stack_safe):
            for m in re.finditer(r"\b" + name + r"\b(?!\s*(?:&|::|>))", code):
                report(path, line_of(code, m.start()), "not-on-stack",
                       f"{name} is not stack-safe: use it by reference or in a static holder")
        for m in HOOK_ASSIGNMENT.finditer(code):
            lhs, rhs = m.group(1), m.group(2).strip()
            # Saving PostgreSQL's hook into our previous_* (to chain it), or restoring it, is not
            # a hand-over of our function.
            if lhs.startswith("previous_") or rhs.startswith("previous_"):
                continue
            if not handed_over_properly(rhs):
                report(path, line_of(code, m.start()), "callbacks",
                       f"{m.group(1)} = {rhs}: hand it over with noexcept_callback(...)")
        for m in SORT_SUPPORT_FIELD.finditer(code):
            if not handed_over_properly(m.group(2)):
                report(path, line_of(code, m.start()), "callbacks",
                       f"->{m.group(1)} = {m.group(2).strip()}: hand it over with "
                       "noexcept_callback(...)")
        for function, positions in REGISTRATIONS.items():
            for m in re.finditer(r"\b" + function + r"\s*\(", code):
                args = call_arguments(code, m.end() - 1)
                for p in positions:
                    if -len(args) <= p < len(args) and not handed_over_properly(args[p]):
                        report(path, line_of(code, m.start()), "callbacks",
                               f"{function} argument {args[p]!r}: hand it over with "
                               "noexcept_callback(...)")
    for function in ("CacheRegisterRelcacheCallback", "CacheRegisterSyscacheCallback"):
        places = []
        for path in glue:
            code = strip_comments_and_strings(path.read_text())
            places += [(path, line_of(code, m.start()))
                       for m in re.finditer(r"\b" + function + r"\s*\(", code)]
        for path, line in places[1:]:
            report(path, line, "one-callback",
                   f"a second {function}: add to the one in cache_invalidation.cpp instead")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[2]).resolve()
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"glue_rules: {len(problems)} violation(s)")
        return 1
    print("glue_rules: src/core and src/pg keep the glue's boundary rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
