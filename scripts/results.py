#!/usr/bin/env python3
"""Results of `make test`, kept per run and turned into the docs' tables.

  results.py save DIR LABEL=LOG...   copy the logs into the results directory
                                     DIR (make test, before its summary)
  results.py render DIR              write DIR/results.md from them
  results.py docs DIR                the same, then docs/results.md and the
                                     results block of README.md from DIR

A results directory (build/results/<UTC date>-<commit>/) holds the guests'
logs as they were, `summary.txt` (what ktap_summary.py printed), `meta.txt`
(the commit of the project and of the series tree, the date) and
`results.md`: for every test program a table of its cases, one column per
guest, and the lines each case logged (its measurements). Nothing in it is
typed by hand: the docs take their numbers from it.
"""
import os
import re
import shutil
import sys

from ktap_summary import RESULT  # one KTAP result-line grammar for both tools

# kselftest_harness and KUnit lines that say nothing a result line does not
BOILERPLATE = re.compile(r'^#\s*(RUN|OK|FAIL|SKIP|PASSED:|FAILED:|Totals:|Starting \d+ tests'
                         r'|Subtest:|TAP version|KTAP version|\S+ took [\d.]+ s)')
# kselftest_harness: "file.c:LINE:case:message"
HARNESS_PREFIX = re.compile(r'^\S+\.c:\d+:[^:\s]*:')
DIAG_LINES = 8
README_BEGIN = '<!-- results:begin (make results; do not edit) -->'
README_END = '<!-- results:end -->'
FEATURES_BEGIN = '<!-- features:begin (make results, from docs/features.tsv; do not edit) -->'
FEATURES_END = '<!-- features:end -->'


def status_of(ok, directive):
    d = directive.upper()
    if 'SKIP' in d:
        return 'skip'
    if ok and 'XFAIL' in d:
        return 'xfail'
    return 'ok' if ok else 'FAIL'


def parse_cases(lines):
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
            if text.startswith('#') and not BOILERPLATE.match(text):
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


def group_label(group):
    return group.split('/')[-1].replace('kselftest:', '')


def anchor(label):
    return re.sub(r'[^a-z0-9_-]', '', label.lower().replace(' ', '-'))


def read_lines(path):
    try:
        with open(path, errors='replace') as f:
            return f.readlines()
    except OSError:
        return []


def tally_lines(summary_path):
    """Per-guest and total lines of ktap_summary.py's output."""
    out = []
    for line in read_lines(summary_path):
        line = line.rstrip()
        if re.match(r'^(\S+: )?\d+ passed, \d+ failed', line):
            out.append(line)
    return out


def cell(runs):
    """A case's status in one guest; run N times (REPEAT=N): passes/N."""
    if not runs:
        return '-'
    if len(runs) == 1:
        return runs[0][0]
    good = sum(1 for st, _ in runs if st in ('ok', 'xfail'))
    return f'{good}/{len(runs)} ok' if good < len(runs) else f'ok x{len(runs)}'


def shown(runs):
    """The run whose lines are shown: the last failing one, else the last."""
    failing = [r for r in runs if r[0] == 'FAIL']
    return failing[-1] if failing else runs[-1]


def render(results_dir, guests):
    """Markdown of a results directory; guests: [(label, log path)]."""
    meta = ''.join(read_lines(os.path.join(results_dir, 'meta.txt'))).strip()
    per_guest = {g: parse_cases(read_lines(p)) for g, p in guests}
    groups = []              # group labels in first-seen order
    table = {}               # label -> case -> guest -> (status, diag)
    for g, _ in guests:
        for group, case, status, diag in per_guest[g]:
            label = group_label(group)
            if label not in table:
                groups.append(label)
                table[label] = {}
            table[label].setdefault(case, {}).setdefault(g, []).append((status, diag))
    names = [g for g, _ in guests if g != 'checkpatch']
    out = ['# Results of `make test`', '',
           'Generated by `scripts/results.py` from the run below; '
           '`make results` regenerates this page. Do not edit it by hand.', '',
           '```', meta, '```', '']
    out += [f'- {t}' for t in tally_lines(os.path.join(results_dir, 'summary.txt'))]
    out += ['', 'Programs and suites: ' +
            ', '.join(f'[{lbl}](#{anchor(lbl)})' for lbl in groups if lbl != 'checkpatch'), '']
    for label in groups:
        if label == 'checkpatch':
            continue
        out += [f'## {label}', '', '| case | ' + ' | '.join(names) + ' |',
                '|---|' + '---|' * len(names)]
        for case, by_guest in table[label].items():
            cells = [cell(by_guest.get(g, [])) for g in names]
            out.append(f'| `{case}` | ' + ' | '.join(cells) + ' |')
        out.append('')
        logged = [(case, g, shown(by_guest[g])[1]) for case, by_guest in table[label].items()
                  for g in names if g in by_guest and shown(by_guest[g])[1]]
        if logged:
            out += ['What each case logged (its measurements and bounds):', '', '```']
            for case, g, diag in logged:
                lines = diag[-DIAG_LINES:]
                out.append(f'{case} [{g}]')
                out += [f'    {d}' for d in lines]
            out += ['```', '']
    return '\n'.join(out).rstrip() + '\n'


def guests_of(results_dir):
    """[(label, log)] of a results directory, as `save` wrote them."""
    index = os.path.join(results_dir, 'logs.txt')
    return [tuple(line.rstrip('\n').split('=', 1)) for line in read_lines(index) if '=' in line]


def save(results_dir, args):
    os.makedirs(results_dir, exist_ok=True)
    index = []
    for arg in args:
        label, _, path = arg.rpartition('=')
        dest = os.path.join(results_dir, os.path.basename(path))
        if os.path.exists(path):
            shutil.copyfile(path, dest)
        index.append(f'{label}={dest}')
    with open(os.path.join(results_dir, 'logs.txt'), 'w') as f:
        f.write(''.join(f'{line}\n' for line in index))


def write_results_md(results_dir):
    text = render(results_dir, guests_of(results_dir))
    with open(os.path.join(results_dir, 'results.md'), 'w') as f:
        f.write(text)
    return text


def readme_block(results_dir):
    meta = dict(line.rstrip('\n').split(': ', 1) for line in
                read_lines(os.path.join(results_dir, 'meta.txt')) if ': ' in line)
    tallies = tally_lines(os.path.join(results_dir, 'summary.txt'))
    total = tallies[-1] if tallies else 'no summary'
    guests = '; '.join(t for t in tallies[:-1])
    return '\n'.join([
        README_BEGIN,
        f'Last recorded `make test` ({meta.get("date", "?")}, project commit '
        f'{meta.get("project", "?")}, {meta.get("duration", "?")}): **{total}**',
        f'({guests}). Every case and what it measured: [docs/results.md](docs/results.md).',
        README_END])


def program_counts(results_dir):
    """program label -> [ok, skip, FAIL] over every guest's cases."""
    counts = {}
    for g, path in guests_of(results_dir):
        for group, _, status, _ in parse_cases(read_lines(path)):
            c = counts.setdefault(group_label(group), [0, 0, 0])
            c[{'ok': 0, 'xfail': 0, 'skip': 1}.get(status, 2)] += 1
    return counts


def features_block(results_dir, features_tsv):
    """The README's feature table: docs/features.tsv, and for each feature
    the cases of its programs in the results directory."""
    counts = program_counts(results_dir)
    out = [FEATURES_BEGIN,
           '| feature | in 6.12 | this series | proven by (cases over all guests, last run) |',
           '|---|---|---|---|']
    for line in read_lines(features_tsv):
        if line.startswith('#') or not line.strip():
            continue
        feature, base, series, page, programs = (line.rstrip('\n').split('\t') + [''] * 5)[:5]
        if page and page != '-':
            feature = f'[{feature}](docs/{page})'
        proofs = []
        for prog in [p for p in programs.split(',') if p and p != '-']:
            ok, skip, fail = counts.get(prog, [0, 0, 0])
            text = f'{ok} ok' + (f', {skip} skipped' if skip else '') + (f', **{fail} failed**' if fail else '')
            if not ok + skip + fail:
                text = 'not in this run'
            proofs.append(f'[`{prog}`](docs/results.md#{anchor(prog)}): {text}')
        out.append(f'| {feature} | {base} | {series} | {"; ".join(proofs) or "-"} |')
    out.append(FEATURES_END)
    return '\n'.join(out)


def replace_block(body, begin, end, block):
    if begin not in body or end not in body:
        return body
    head, rest = body.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + block + tail


def docs(results_dir, top):
    text = write_results_md(results_dir)
    with open(os.path.join(top, 'docs', 'results.md'), 'w') as f:
        f.write(text)
    readme = os.path.join(top, 'README.md')
    body = ''.join(read_lines(readme))
    body = replace_block(body, README_BEGIN, README_END, readme_block(results_dir))
    body = replace_block(body, FEATURES_BEGIN, FEATURES_END,
                         features_block(results_dir, os.path.join(top, 'docs', 'features.tsv')))
    with open(readme, 'w') as f:
        f.write(body)


def main(argv):
    if len(argv) >= 2 and argv[0] == 'save':
        save(argv[1], argv[2:])
        return 0
    if len(argv) == 2 and argv[0] == 'render':
        write_results_md(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == 'docs':
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        docs(argv[1], top)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
