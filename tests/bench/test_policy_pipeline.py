"""The policy network's pipeline: its data, resumable, and its trainer."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks.policy_data import Job, jobs_of, run_job, shard_path
from benchmarks.train_policy import ORDERS, Net, batch_of, load, softmax_loss
from bot.ai.policy import PolicyNet
from bot.engine import Variant


def test_data_shards_are_written_whole_and_skipped_once_there(tmp_path: Path) -> None:
    jobs = jobs_of([Variant.PAIRS], deals=3, shard=2, seed=1, budget=2, out=tmp_path)
    assert [(j.first, j.deals) for j in jobs] == [(1, 2), (3, 1)]
    decisions = run_job(jobs[1])
    assert decisions > 0
    assert shard_path(tmp_path, Variant.PAIRS, 3, 1).exists()
    assert not list(tmp_path.glob("*.part.npz"))
    left = jobs_of([Variant.PAIRS], deals=3, shard=2, seed=1, budget=2, out=tmp_path)
    assert [(j.first, j.deals) for j in left] == [(1, 2)]


def test_training_lowers_the_loss_and_writes_weights_the_robot_reads(tmp_path: Path) -> None:
    run_job(Job(Variant.INDIVIDUAL, 1, 1, 2, shard_path(tmp_path, Variant.INDIVIDUAL, 1, 1)))
    data = load(tmp_path, "table")
    assert data.decisions > 5
    decisions = np.arange(data.decisions)
    b = batch_of(data, decisions, 0.1)
    assert np.allclose(np.add.reduceat(b.target, b.seg_start), 1.0, atol=1e-5)
    net = Net((16, 8), np.random.default_rng(1))
    first = softmax_loss(net.forward(b.rows)[0], b)[1]
    for _ in range(60):
        net.step(b, 3e-3, 0.0)
    assert softmax_loss(net.forward(b.rows)[0], b)[1] < first
    path = tmp_path / "policy_table.npz"
    np.savez(path, **net.p)  # pyright: ignore[reportArgumentType]
    robot = PolicyNet.load(path)
    np.testing.assert_allclose(robot.scores(b.rows), net.forward(b.rows)[0], rtol=1e-4, atol=1e-4)


def test_a_relabelled_batch_is_each_decision_with_its_other_suits_moved(tmp_path: Path) -> None:
    run_job(Job(Variant.PAIRS, 1, 1, 2, shard_path(tmp_path, Variant.PAIRS, 1, 1)))
    data = load(tmp_path, "table")
    decisions = np.arange(data.decisions)
    plain = batch_of(data, decisions, 0.1)
    moved = batch_of(data, decisions, 0.1, np.random.default_rng(3))
    assert np.array_equal(moved.target, plain.target)
    drawn = {
        next(
            k for k, cols in enumerate(ORDERS) if np.array_equal(moved.rows[i], plain.rows[i, cols])
        )
        for i in plain.seg_start.tolist()
    }
    assert len(drawn) > 1  # the orders are drawn, not always the same
    assert not np.array_equal(moved.rows, plain.rows)
