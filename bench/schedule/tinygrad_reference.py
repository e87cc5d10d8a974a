"""tinygrad's scheduler on the corpus tensor graphs, timed the way bench-schedule times ours.

For every program the tensor graph is rebuilt as live UOps, then
transform_to_call + create_linear_with_vars (tensor graph -> memory-planned
LINEAR) run `reps` times after a warm-up, with tinygrad's schedule cache
cleared before each run and nothing of a run kept into the next: tinygrad's
node cache holds nodes weakly, so each run makes its nodes again, as
bench-schedule's cold figure (a fresh interning context per repetition)
does on our side. Prints `PROGRAM id median_us` lines and
TINYGRAD_MEDIAN_US over the programs named in argv[3] (ours' list), so both
sides cover the same programs.

usage: cd <tinygrad> && PYTHONPATH=<repo>/python:<repo>/python/tools:. python3 tinygrad_reference.py schedules.jsonl reps ids.txt
"""
import json, sys, time

from export_schedules import decode_graph
from tinygrad.tensor import transform_to_call
from tinygrad.schedule import create_linear_with_vars, schedule_cache


def main():
    path, reps, ids_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    wanted = set(open(ids_file).read().split())
    medians = []
    for line in open(path):
        rec = json.loads(line)
        if rec["id"] not in wanted:
            continue
        sink = decode_graph(rec["tensor_graph"])
        times = []
        for r in range(reps + 1):
            schedule_cache.clear()
            t0 = time.perf_counter()
            call, _ = transform_to_call(sink)
            create_linear_with_vars(call)
            t = (time.perf_counter() - t0) * 1e6
            del call  # the next run must not find this one's nodes alive
            if r:
                times.append(t)
        times.sort()
        med = times[len(times) // 2]
        medians.append(med)
        print(f"PROGRAM {rec['id']} {med:.1f}")
    medians.sort()
    print(f"TINYGRAD_MEDIAN_US {medians[len(medians) // 2] if medians else 0}")


if __name__ == "__main__":
    main()
