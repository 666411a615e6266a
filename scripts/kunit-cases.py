#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one line per KUnit case from kunit.py's --json output.

Usage: scripts/kunit-cases.py RESULTS.json

Each line is "STATUS<TAB>suite.case<TAB>detail", STATUS one of PASS, FAIL,
SKIP; a parameterised case is one line, FAIL if any of its parameters
failed, SKIP if all were skipped. Exits 1 if the file has no case.
"""
import json
import sys


def case_status(group):
    """Status of a parameterised case from its parameters' counts."""
    misc = group.get("misc", {})
    if misc.get("failed", 0) or misc.get("crashed", 0) or misc.get("errors", 0):
        return "FAIL"
    if misc.get("tests", 0) and misc.get("skipped", 0) == misc.get("tests", 0):
        return "SKIP"
    return "PASS"


def cases(suite):
    """(status, name, detail) for each case of a suite."""
    for case in suite.get("test_cases", []):
        yield case["status"], case["name"], ""
    for group in suite.get("sub_groups", []):
        n = len(group.get("test_cases", []))
        yield case_status(group), group["name"], f"{n} parameters"


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} RESULTS.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        top = json.load(f)
    n = 0
    for suite in top.get("sub_groups", []):
        for status, name, detail in cases(suite):
            status = {"PASS": "PASS", "SKIP": "SKIP"}.get(status, "FAIL")
            print(f"{status}\t{suite['name']}.{name}\t{detail}")
            n += 1
    if not n:
        sys.exit(f"{sys.argv[1]}: no KUnit case")


if __name__ == "__main__":
    main()
