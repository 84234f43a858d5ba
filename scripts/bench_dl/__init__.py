"""The deadline-workload report of make bench, by job: parse, models, tables,
plots; scripts/bench_dl_report.py puts them together."""
