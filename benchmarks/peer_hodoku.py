"""Time hodoku-py's rating, one puzzle per stdin line: prints one JSON object per puzzle.

Run with a Python that has ``pip install hodoku-py`` (a separate virtual environment); used by
bench_rating.py ``--peer-python``. Output: ``{"seconds": s, "level": ..., "score": ...}``.
"""

import json
import sys
import time

from hodoku import Solver

solver = Solver()
for line in sys.stdin:
    puzzle = line.strip()
    if not puzzle:
        continue
    t0 = time.perf_counter()
    result = solver.rate(puzzle)
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "level": str(result.level), "score": result.score}), flush=True)
