#!/usr/bin/env python3
"""Tests of the host tools that read the guests' logs (ktap_summary.py,
results.py), on stored logs in data/: each expectation follows from the
log's KTAP and from the tool's documented rules, not from a past output.

Run by make test, which counts its results in the closing line; alone:
python3 scripts/tests/test_tools.py (KTAP on stdout, exit 1 on a failure).
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import ktap_summary  # noqa: E402
import results  # noqa: E402


def data(name):
    with open(os.path.join(HERE, 'data', name)) as f:
        return f.readlines()


def summary(name):
    """(passed, failed, skipped, note texts) of ktap_summary for data/NAME."""
    p, f, s, notes = ktap_summary.parse('t', data(name))
    return p, f, s, [n[0] for n in notes], notes


class KtapSummary(unittest.TestCase):
    def test_counts_leaves_skips_and_xfails(self):
        # pass.log: leaves cbs.alone.share, cbs.eight.share (XFAIL: counts as
        # passed), grub_one_cpu, half, full; rule_cases is their parent, not
        # a case; cbs.little.share is skipped.
        p, f, s, texts, _ = summary('pass.log')
        self.assertEqual((p, f, s), (5, 0, 1))
        self.assertIn('t: SKIP kselftest:sched/deadline/dl_cbs_test/cbs.little.share: '
                      'SKIP no LITTLE CPU', texts)
        self.assertTrue(any(t.startswith('t: XFAIL ') and 'cbs.eight.share' in t
                            for t in texts))

    def test_failure_names_its_program_and_assertion(self):
        p, f, s, texts, notes = summary('fail.log')
        self.assertEqual((p, f, s), (1, 1, 0))
        name = 't: FAIL kselftest:sched/deadline/dl_demotion_test/demoted.pi_boost'
        self.assertIn(name, texts)
        why = [n for n in notes if n[0] == name][0][1]
        self.assertTrue(any(':Expected bound' in w for w in why))
        # the program's own "not ok" is not a second failure
        self.assertEqual(texts.count(name), 1)

    def test_missing_results_fail(self):
        # plan 1..3, two results
        p, f, s, texts, _ = summary('missing.log')
        self.assertEqual((p, f), (2, 1))
        self.assertTrue(any('2 of 3 results (missing)' in t for t in texts))

    def test_guest_that_did_not_finish_fails(self):
        # no "# wb: done", and 1 of the 2 planned results
        p, f, s, texts, _ = summary('nodone.log')
        self.assertEqual((p, f), (1, 2))
        self.assertTrue(any('did not finish' in t for t in texts))

    def test_closing_line_and_status(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = ktap_summary.main([f'a={os.path.join(HERE, "data", "pass.log")}',
                                    f'b={os.path.join(HERE, "data", "fail.log")}'])
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[-1], '6 passed, 1 failed, 1 skipped')
        self.assertEqual(rc, 1)

    def test_unreadable_log_fails(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = ktap_summary.main(['x=/nonexistent/log'])
        self.assertEqual(rc, 1)
        self.assertTrue(out.getvalue().splitlines()[-1].startswith('0 passed, 1 failed'))


class Results(unittest.TestCase):
    def test_cases_groups_and_lines(self):
        cases = results.parse_cases(data('pass.log'))
        got = [(results.group_label(g), c, st) for g, c, st, _ in cases]
        self.assertEqual(got, [
            ('dl_cbs_test', 'cbs.alone.share', 'ok'),
            ('dl_cbs_test', 'cbs.little.share', 'skip'),
            ('dl_cbs_test', 'cbs.eight.share', 'xfail'),
            ('sched_deadline_grub', 'grub_one_cpu', 'ok'),
            ('sched_deadline_grub', 'rule_cases.half', 'ok'),
            ('sched_deadline_grub', 'rule_cases.full', 'ok'),
        ])
        # a case's lines, without the harness's file:line:case: prefix
        self.assertEqual(cases[0][3], ['share 0.1000 (expected 0.1000 +- 0.005)'])

    def test_repeated_case_is_counted(self):
        # three runs of one case, the second failing: 2/3, its lines shown
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(HERE, 'data', 'repeat.log')
            results.save(d, [f'arm64={log}'])
            text = results.render(d, results.guests_of(d))
        self.assertIn('| `demoted.pi_boost` | 2/3 ok |', text)
        self.assertIn('    waited 110.0 ms', text)
        self.assertNotIn('    waited 22.0 ms', text)

    def test_docs_rewrite_only_the_readme_block(self):
        with tempfile.TemporaryDirectory() as top:
            res = os.path.join(top, 'res')
            os.makedirs(os.path.join(top, 'docs'))
            results.save(res, [f'arm64={os.path.join(HERE, "data", "pass.log")}'])
            with open(os.path.join(res, 'meta.txt'), 'w') as f:
                f.write('date: D\nproject: abc1234\nduration: 9 s\n')
            with open(os.path.join(res, 'summary.txt'), 'w') as f:
                f.write('arm64: 5 passed, 0 failed, 1 skipped\n5 passed, 0 failed, 1 skipped\n')
            readme = os.path.join(top, 'README.md')
            with open(readme, 'w') as f:
                f.write(f'head\n{results.README_BEGIN}\nold\n{results.README_END}\ntail\n')
            results.docs(res, top)
            with open(readme) as f:
                body = f.read()
            self.assertTrue(body.startswith('head\n') and body.endswith('tail\n'))
            self.assertIn('**5 passed, 0 failed, 1 skipped**', body)
            self.assertIn('abc1234', body)
            self.assertNotIn('old', body)
            with open(os.path.join(top, 'docs', 'results.md')) as f:
                self.assertIn('## dl_cbs_test', f.read())


    def test_feature_table_counts_each_program(self):
        # pass.log: dl_cbs_test has 2 passing cases (one an XFAIL) and a
        # skip; a program absent from the run says so.
        with tempfile.TemporaryDirectory() as d:
            results.save(d, [f'arm64={os.path.join(HERE, "data", "pass.log")}',
                             f'x86_64={os.path.join(HERE, "data", "fail.log")}'])
            tsv = os.path.join(d, 'features.tsv')
            with open(tsv, 'w') as f:
                f.write('# comment\n'
                        'CBS\tyes\tkept\ttesting.md\tdl_cbs_test\n'
                        'demotion\tno\tyes\tdemotion.md\tdl_demotion_test,dl_nothing\n'
                        'later\tno\tplanned\t-\t-\n')
            rows = results.features_block(d, tsv).splitlines()[3:-1]
        self.assertEqual(rows[0], '| [CBS](docs/testing.md) | yes | kept | '
                         '[`dl_cbs_test`](docs/results.md#dl_cbs_test): 2 ok, 1 skipped |')
        self.assertIn('[`dl_demotion_test`](docs/results.md#dl_demotion_test): '
                      '1 ok, **1 failed**', rows[1])
        self.assertIn('`dl_nothing`](docs/results.md#dl_nothing): not in this run', rows[1])
        self.assertEqual(rows[2], '| later | no | planned | - |')


class KtapResult(unittest.TextTestResult):
    """unittest's results as KTAP, one line per test, as the guests print."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.n = 0

    def report(self, test, ok, why=''):
        self.n += 1
        print(f'{"ok" if ok else "not ok"} {self.n} {test.id().split(".", 1)[1]}')
        for line in why.splitlines()[-6:]:
            print(f'# {line}')

    def addSuccess(self, test):
        super().addSuccess(test)
        self.report(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, False, self._exc_info_to_string(err, test))


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print('KTAP version 1')
    print(f'1..{suite.countTestCases()}')
    runner = unittest.TextTestRunner(stream=io.StringIO(), resultclass=KtapResult)
    ok = runner.run(suite).wasSuccessful()
    print('# wb: done')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
