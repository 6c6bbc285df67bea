"""The reserves rule as a designer would write it in numpy: every die of a
batch rolled at once, arrivals found with vectorised comparisons. Used by
scripts/bench/index.ts as the baseline in the same invocation; prints one
JSON line with the trials per second and the estimates it found (so the
comparison is between programs that compute the same thing)."""
import json
import sys
import time

import numpy as np


def simulate(trials, squads=4, rounds=4, target=7, chosen_round=0, command=2, seed=1, batch=1_000_000):
    rng = np.random.default_rng(seed)
    modifier = np.arange(1, rounds + 1, dtype=np.int16)
    if chosen_round:
        modifier[chosen_round - 1] += command
    arrivals = np.zeros(rounds + 1, dtype=np.int64)  # index rounds: lost
    all_by = np.zeros(rounds, dtype=np.int64)
    done = 0
    while done < trials:
        n = min(batch, trials - done)
        rolls = rng.integers(1, 7, size=(n, squads, rounds), dtype=np.int16)
        success = rolls + modifier >= target
        arrived = success.any(axis=2)
        first = np.where(arrived, success.argmax(axis=2), rounds)  # round index 0..rounds-1, or rounds
        arrivals += np.bincount(first.ravel(), minlength=rounds + 1)
        last = first.max(axis=1)
        all_by += np.array([(last <= r).sum() for r in range(rounds)])
        done += n
    return arrivals / (trials * squads), all_by / trials


def main():
    trials = int(float(sys.argv[1])) if len(sys.argv) > 1 else 4_000_000
    simulate(200_000)  # warm-up
    start = time.perf_counter()
    squad_round, all_by = simulate(trials)
    elapsed = time.perf_counter() - start
    print(json.dumps({
        "trials": trials,
        "seconds": elapsed,
        "trialsPerSecond": trials / elapsed,
        "squadNever": float(squad_round[-1]),
        "allBy4": float(all_by[-1]),
        "numpy": np.__version__,
    }))


if __name__ == "__main__":
    main()
