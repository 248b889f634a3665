#!/usr/bin/env python3
"""The one layout of sql/idgen.sql, the source of the current SQL surface, and of the SQL edition's
sources sql/idgen_sql/*.sql (CONTRIBUTING.md).

Outside dollar-quoted bodies:
  - every CREATE starts a paragraph: the line before it is blank or a -- comment;
  - a CREATE FUNCTION line holds the name and parameters only; RETURNS, AS and LANGUAGE each start
    a line of their own (AS and LANGUAGE never share one);
  - COMMENT ON ... IS ends its line, and the text follows on the next.
Released scripts (sql/idgen--*.sql) are left as they shipped.

Usage: sql_style.py [FILE]   (defaults to sql/idgen.sql beside this repository's test/)
Prints each violation as file:line: text and exits 1 when there is any.
"""
import pathlib
import re
import sys


def check(path):
    problems = []
    lines = path.read_text().split("\n")
    dollar = None
    in_function = False
    for number, line in enumerate(lines, 1):
        if dollar is None:
            if line.startswith("CREATE ") and number > 1:
                before = lines[number - 2]
                if before.strip() and not before.startswith("--"):
                    problems.append((number, "CREATE does not start a paragraph (no blank line "
                                             "or comment before it)"))
            if line.startswith("CREATE FUNCTION "):
                in_function = True
                if re.search(r"\b(RETURNS|LANGUAGE)\b|\bAS '", line):
                    problems.append((number, "CREATE FUNCTION line holds more than the name and "
                                             "parameters"))
            if in_function and re.search(r"^AS '.*\bLANGUAGE\b|^LANGUAGE .*\bAS '", line):
                problems.append((number, "AS and LANGUAGE share a line"))
            if line.startswith("COMMENT ON ") and not line.rstrip().endswith(" IS"):
                problems.append((number, "COMMENT ON ... IS does not end its line"))
            if line.rstrip().endswith(";"):
                in_function = False
        for tag in re.findall(r"\$[A-Za-z_]*\$", line):
            dollar = tag if dollar is None else (None if tag == dollar else dollar)
    return [f"{path}:{n}: {what}" for n, what in problems]


def main():
    default = pathlib.Path(__file__).resolve().parents[2] / "sql" / "idgen.sql"
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else default
    problems = check(path)
    for p in problems:
        print(p)
    if problems:
        print(f"sql_style: {len(problems)} violation(s)")
        return 1
    print(f"sql_style: {path.name} keeps its layout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
