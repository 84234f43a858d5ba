#!/usr/bin/env python3
"""Tests of the host tools that read the guests' logs (ktap_summary.py,
results.py, bench_dl_report.py with bench_dl/), on stored logs in data/: each expectation follows from the
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

import bench_dl_report  # noqa: E402
import ktap_summary  # noqa: E402
import results  # noqa: E402
from bench_dl import models, parse  # noqa: E402


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
        cases = ktap_summary.cases(data('pass.log'))
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

    def test_case_list_agrees_with_the_summary(self):
        # the two readers of one log: as many ok/xfail, skipped and failed
        # leaves in cases() as ktap_summary counts (pass.log and fail.log
        # finish and lose no result, so every count is a leaf's)
        for name in ('pass.log', 'fail.log', 'repeat.log'):
            passed, failed, skipped, _ = ktap_summary.parse('t', data(name))
            st = [c[2] for c in ktap_summary.cases(data(name))]
            self.assertEqual((st.count('ok') + st.count('xfail'), st.count('FAIL'), st.count('skip')),
                             (passed, failed, skipped), name)

    def test_bench_report_goes_into_its_page_block(self):
        with tempfile.TemporaryDirectory() as top:
            bench = os.path.join(top, 'results', 'bench-20261207-000000-abc')
            os.makedirs(bench)
            os.makedirs(os.path.join(top, 'docs'))
            with open(os.path.join(bench, 'bench-report.md'), 'w') as f:
                f.write('# make bench (quick)\n\n![plot](shares.png)\n| figure | base |\n')
            page = os.path.join(top, 'docs', 'bench.md')
            with open(page, 'w') as f:
                f.write(f'# page\n{results.BENCH_BEGIN}\nold\n{results.BENCH_END}\nend\n')
            res = os.path.join(top, 'res')
            results.save(res, [f'arm64={os.path.join(HERE, "data", "pass.log")}'])
            results.docs(res, top, bench)
            with open(page) as f:
                body = f.read()
        # headings two levels down, plots left out, text around the block kept
        self.assertIn('### make bench (quick)', body)
        self.assertIn('From `build/results/bench-20261207-000000-abc/`.', body)
        self.assertNotIn('![plot]', body)
        self.assertNotIn('old', body)
        self.assertTrue(body.startswith('# page\n') and body.endswith('end\n'))

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
        self.assertEqual(rows[0], '| [CBS](docs/testing.md) | yes | kept | - | '
                         '[`dl_cbs_test`](docs/results.md#dl_cbs_test): 2 ok, 1 skipped |')
        self.assertIn('[`dl_demotion_test`](docs/results.md#dl_demotion_test): '
                      '1 ok, **1 failed**', rows[1])
        self.assertIn('`dl_nothing`](docs/results.md#dl_nothing): not in this run', rows[1])
        self.assertEqual(rows[2], '| later | no | planned | - | - |')

    def test_headline_is_the_range_over_runs_and_guests(self):
        # repeat.log: the case logged waited 21.0, 110.0 and 22.0 ms in its
        # three runs (one failed: its number counts too, it was measured);
        # pass.log: one share line
        with tempfile.TemporaryDirectory() as d:
            results.save(d, [f'arm64={os.path.join(HERE, "data", "repeat.log")}',
                             f'x86_64={os.path.join(HERE, "data", "pass.log")}'])
            wait = results.headline(d, r'dl_demotion_test;demoted.pi_boost;waited ([\d.]+) ms;'
                                       'waits {} ms')
            share = results.headline(d, r'dl_cbs_test;cbs.alone.share;share ([\d.]+);share {}')
            absent = results.headline(d, r'dl_cbs_test;cbs.alone.share;nothing ([\d.]+);{}')
        self.assertEqual(wait, 'waits 21.0-110.0 ms (3 runs: arm64)')
        self.assertEqual(share, 'share 0.1000 (1 run: x86_64)')
        self.assertEqual(absent, 'not measured in this run')


class BenchReport(unittest.TestCase):
    """data/bench-dl.log: two 10/100 ms tasks with 8 ms of work on the big
    CPUs (a: on time, a 5 ms jump in job 1; b: jobs 1 and 2 late, a 6 ms
    jump in job 1) and a reclaiming 20/100 ms task r on the LITTLE ones."""

    def setUp(self):
        self.run = parse.parse_log(os.path.join(HERE, 'data', 'bench-dl.log'))
        self.s = self.run.sets['u20']

    def test_log_is_read_whole(self):
        self.assertTrue(self.run.clean and self.s.ended)
        self.assertEqual(list(self.s.tasks), ['a', 'b', 'r'])
        self.assertEqual(len(self.s.jobs['b']), 3)
        self.assertEqual(models.clusters(self.s), [('big', [0, 1]), ('LITTLE', [2, 3])])
        self.assertAlmostEqual(self.s.umax, 0.95)

    def test_misses_and_jumps(self):
        # periodic: a and b (work <= runtime), 6 jobs, b's 2 misses. A jump
        # of J s charges J x 0.8 (units/CPU time = 8/10) of runtime at once;
        # the slack is 10 - 8 = 2 ms: both jumps (4 and 4.8 ms) exceed it,
        # so b's late jobs follow a jump and none is left to the scheduler.
        jobs, missed, clean, ratios = models.set_totals(self.s)
        self.assertEqual((jobs, missed, clean), (6, 2, 0))
        self.assertEqual(models.jumps(self.s), (0.006, 2))
        # response / deadline: a 0.1 0.5 0.1, b 0.2 1.5 1.2
        self.assertEqual([round(r, 3) for r in ratios], [0.1, 0.1, 0.2, 0.5, 1.2, 1.5])
        self.assertEqual(models.pct(ratios, 50), ratios[2])

    def test_water_fill_caps_and_shares_the_rest(self):
        # 1.2 shared 1:2:3 is 0.2, 0.4, 0.6; with a cap of 0.5 the third
        # takes 0.5 and the other two share 0.7 as 1:2
        x = models.water_fill({'p': 1, 'q': 2, 'r': 3}, 1.2, 0.5)
        self.assertAlmostEqual(x['r'], 0.5)
        self.assertAlmostEqual(x['p'], 0.7 / 3)
        self.assertAlmostEqual(x['q'], 1.4 / 3)

    def test_series_rule_of_a_reclaiming_task_alone(self):
        # LITTLE at 600 of 1200 MHz: s = 0.5 x 0.5 = 0.25; r alone in a
        # domain of 2 CPUs, Umax 0.95: spare min(2 x 0.95, 1.0 x 0.95 / s),
        # one thread capped at Umax: 0.95
        little = models.clusters(self.s)[1]
        self.assertAlmostEqual(models.mean_speed(self.s, little), 0.25)
        self.assertAlmostEqual(models.series_rule(self.s, little)['r'], 0.95, places=4)

    def test_report_summary_row(self):
        # base and series both this log: a row each, one run, the counts above
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(HERE, 'data', 'bench-dl.log')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = bench_dl_report.main([d, f'base={log}', f'series={log}'])
        self.assertEqual(rc, 0)
        rows = [r for r in out.getvalue().splitlines() if r.startswith('| u20 |')]
        self.assertEqual(len(rows), 2)
        for row, label in zip(rows, ('base', 'series')):
            self.assertIn(f'| {label} | 1 | 6 | 2 | 0 | 2 | 6 |', row)

    def test_log_without_end_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'cut.log')
            with open(os.path.join(HERE, 'data', 'bench-dl.log')) as f:
                cut = [line for line in f if not line.startswith('wl end')]
            with open(log, 'w') as f:
                f.writelines(cut)
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = bench_dl_report.main([d, f'base={log}'])
        self.assertEqual(rc, 1)
        self.assertIn('has no "wl end" line', err.getvalue())


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
