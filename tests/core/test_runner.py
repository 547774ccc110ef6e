"""The seeded runner: results depend on the seed, never on the workers."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.core.runner import plan_chunks, run_chunks


def count_sixes(faces: int, size: int, seed: np.random.SeedSequence) -> int:
    rng = np.random.default_rng(seed)
    return int((rng.integers(1, faces + 1, size) == faces).sum())


def test_chunks_cover_the_total_with_distinct_seeds() -> None:
    chunks = plan_chunks(1050, 250, seed=7)
    assert [c.size for c in chunks] == [250, 250, 250, 250, 50]
    states = {tuple(c.seed.generate_state(4)) for c in chunks}
    assert len(states) == len(chunks)


def test_in_process_and_two_workers_agree_and_progress_is_absolute() -> None:
    seen: list[tuple[int, int]] = []
    one = list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=700, workers=1,
                          progress=lambda done, total: seen.append((done, total))))
    two = list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=700, workers=2))
    assert one == two
    assert seen[-1] == (5000, 5000) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    other_seed = list(run_chunks(count_sixes, (6,), 5000, seed=4, chunk_size=700))
    assert other_seed != one
    # 5000 throws of a d6: the count of sixes is within 4 standard deviations of 833
    assert abs(sum(one) - 5000 / 6) < 4 * (5000 * (1 / 6) * (5 / 6)) ** 0.5


@pytest.mark.parametrize(("total", "chunk", "workers"), [(0, 10, 1), (10, 0, 1), (10, 5, 0),
                                                        (10, 5, 33)])
def test_bad_counts_are_refused(total: int, chunk: int, workers: int) -> None:
    with pytest.raises(OptionsError):
        list(run_chunks(count_sixes, (6,), total, seed=0, chunk_size=chunk, workers=workers))
