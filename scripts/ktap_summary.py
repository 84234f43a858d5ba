#!/usr/bin/env python3
"""Summarise the KTAP a guest printed (and, as cases(), read it case by
case for results.py): one line per failed, skipped or
expected-to-fail (XFAIL, counted as passed) test case, then `N passed,
N failed[, N skipped]`. The failures come again at the end, each with the
failed assertions (kselftest_harness `file.c:N:test:Expected ...` and the
message line after it) and the last diagnostic lines before it, so that the
tail of a CI log says what failed and why. Exit 1 on any failure, on a missing result (fewer results
than a plan announced), or when the log lacks the guest's end marker (it
crashed, hung or timed out).
"""
import re
import sys

RESULT = re.compile(r'^(\s*)(ok|not ok) (\d+)\s*-?\s*([^#]*?)\s*(?:#\s*(.*))?$')
PLAN = re.compile(r'^(\s*)1\.\.(\d+)\s*$')
DONE = '# wb: done'
DIAG_LINES = 3
ASSERT_LINES = 6
# kselftest_harness: "file.c:LINE:test:Expected a (1) == b (2)"
ASSERTION = re.compile(r'^#\s+(\S+\.c:\d+:)\S*:Expected ')
# kselftest_harness lines that say nothing a result line does not
BOILERPLATE = re.compile(r'^\s*#\s+(RUN|OK|FAIL|SKIP|PASSED:|FAILED:|Totals:)\s')
# ...and, for the lines a case logged, the harness and KUnit headers too
CASE_BOILERPLATE = re.compile(r'^#\s*(RUN|OK|FAIL|SKIP|PASSED:|FAILED:|Totals:|Starting \d+ tests'
                              r'|Subtest:|TAP version|KTAP version|\S+ took [\d.]+ s)')
# kselftest_harness: "file.c:LINE:case:message"
HARNESS_PREFIX = re.compile(r'^\S+\.c:\d+:[^:\s]*:')


def status_of(ok, directive):
    d = directive.upper()
    if 'SKIP' in d:
        return 'skip'
    if ok and 'XFAIL' in d:
        return 'xfail'
    return 'ok' if ok else 'FAIL'


def cases(lines):
    """Leaf results of one KTAP log: a list of (group, case, status, diag).

    group is the top-level result holding the case (a test program or a
    KUnit suite); case is the path below it, '.'-joined. diag: the comment
    lines logged since the previous result, boilerplate dropped.
    """
    seq = []                 # (indent, name, status, diag) in log order
    diag = []
    for line in lines:
        line = line.rstrip('\r\n')
        m = RESULT.match(line)
        if not m:
            text = line.strip()
            if text.startswith('#') and not CASE_BOILERPLATE.match(text):
                body = text[1:].strip()
                diag.append(HARNESS_PREFIX.sub('', body))
            continue
        indent, ok, name = len(m.group(1)), m.group(2) == 'ok', m.group(4)
        seq.append((indent, name, status_of(ok, m.group(5) or ''), diag))
        diag = []
    cases = []
    # A result closes the deeper results logged before it: its children.
    stack = []               # [indent, name, has_children, status, diag]
    for indent, name, status, d in seq:
        children = []
        while stack and stack[-1][0] > indent:
            children.append(stack.pop())
        entry = [indent, name, bool(children), status, d]
        if children:
            entry.append(children[::-1])
        stack.append(entry)
    def walk(entry, group, prefix):
        name = entry[1]
        if not entry[2]:
            path = '.'.join(prefix + [name]) if prefix else name
            cases.append((group, path if group != name else '(the program)', entry[3], entry[4]))
            return
        for child in entry[5]:
            walk(child, group, prefix + ([name] if group != name else []))
    for entry in stack:
        walk(entry, entry[1], [])
    return cases


def parse(label, lines):
    """Return (passed, failed, skipped, notes) for one guest log."""
    passed = failed = skipped = 0
    notes = []               # [indent, text]: names get their parents' prefix
    prev_indent = None       # indent of the previous result line
    failed_below = set()     # indents holding a failed result in the open blocks
    plans = {}               # indent -> [announced count, results seen]
    diag = []                # the last diagnostics since the previous result
    asserts = []             # failed assertions since the previous result
    assert_at = None         # "file.c:N:" of the last one: its message follows
    for line in lines:
        line = line.rstrip('\r\n')
        if line.lstrip().startswith('#') and not RESULT.match(line):
            text = line.strip()
            a = ASSERTION.match(text)
            if a or (assert_at and text[1:].lstrip().startswith(assert_at)):
                if len(asserts) < ASSERT_LINES:
                    asserts.append(text)
                assert_at = a.group(1) if a else None
            else:
                assert_at = None
            if not BOILERPLATE.match(line):
                diag = (diag + [text])[-DIAG_LINES:]
            continue
        m = PLAN.match(line)
        if m:
            plans[len(m.group(1))] = [int(m.group(2)), 0]
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent, ok, name = len(m.group(1)), m.group(2) == 'ok', m.group(4)
        directive = m.group(5) or ''
        why = asserts + [d for d in diag if d not in asserts]
        diag, asserts, assert_at = [], [], None
        if indent in plans:
            plans[indent][1] += 1
        leaf = prev_indent is None or prev_indent <= indent
        prev_indent = indent
        if leaf:
            if 'SKIP' in directive.upper():
                skipped += 1
                notes.append([indent, f'SKIP {name}: {directive}'])
            elif ok and 'XFAIL' in directive.upper():
                passed += 1     # an expected failure, listed like a skip
                notes.append([indent, f'XFAIL {name}: {directive}'])
            elif ok:
                passed += 1
            else:
                failed += 1
                failed_below.add(indent)
                notes.append([indent, f'FAIL {name}', why])
            continue
        # This result closes the block of deeper results above it.
        deeper_failed = any(k > indent for k in failed_below)
        for k in sorted(k for k in plans if k > indent):
            want, got = plans.pop(k)
            if got < want:
                failed += 1
                deeper_failed = True
                notes.append([k, f'FAIL {got} of {want} results (missing)'])
        if not ok and not deeper_failed:
            failed += 1
            notes.append([indent, f'FAIL {name} ({directive or "no failing case reported"})'])
        failed_below = {k for k in failed_below if k <= indent}
        if not ok:
            failed_below.add(indent)
        for n in notes:
            if n[0] > indent:
                kind, rest = n[1].split(' ', 1)
                n[0], n[1] = indent, f'{kind} {name}/{rest}'
    for k, (want, got) in plans.items():
        if got < want:
            failed += 1
            notes.append([k, f'FAIL {got} of {want} results (missing)'])
    if not any(line.startswith(DONE) for line in lines):
        failed += 1
        notes.append([0, f'FAIL guest did not finish (crash, hang or timeout): no "{DONE}"'])
    return passed, failed, skipped, [[f'{label}: {n[1]}'] + n[2:] for n in notes]


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    total = [0, 0, 0]
    failures = []
    for arg in args:
        label, _, path = arg.rpartition('=')
        try:
            with open(path, errors='replace') as f:
                lines = f.readlines()
        except OSError as e:
            lines = []
            print(f'{label or path}: cannot read log: {e}')
        p, f_, s, notes = parse(label or path, lines)
        for n in notes:
            print(n[0])
            if n[0].split(': ', 1)[1].startswith('FAIL'):
                failures.append(n)
        print(f'{label or path}: {p} passed, {f_} failed, {s} skipped')
        total = [total[0] + p, total[1] + f_, total[2] + s]
    if failures:
        print('failures:')
        for n in failures:
            print(n[0])
            for d in (n[1] if len(n) > 1 else []):
                print(f'    {d}')
    line = f'{total[0]} passed, {total[1]} failed'
    if total[2]:
        line += f', {total[2]} skipped'
    print(line)
    return 1 if total[1] or not total[0] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
