#!/bin/sh
# Run the Python interop tests with Debian's stdlib-only python (no PyPI packages needed).
# Final line: "N passed, N failed"; exit status non-zero on any failure.
# Set TG_CORPUS_DIR to point the corpus test elsewhere (default: <repo>/../shared/corpus).
cd "$(dirname "$0")" || exit 1
exec /usr/bin/python3 tests/run.py
