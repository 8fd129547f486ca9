"""How the dds stage cuts its work into chunks for the workers."""

from __future__ import annotations

from bridgerank.dds.workers import plan_chunks

# a board whose auction is judged needs its deal's table (the deal text is not read here)
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _boards(deals: int, per_deal: int = 1) -> list[dict]:
    return [
        {
            "id": deal * per_deal + seat,
            "deal_hash": f"{deal:016x}",
            "deal": DEAL,
            "auction": "1S P",
            "bidstart": "N",
        }
        for deal in range(deals)
        for seat in range(per_deal)
    ]


def _cover(chunks, boards) -> None:
    # every board once, every deal's boards in one chunk
    ids = [board["id"] for chunk in chunks for board in chunk.boards]
    assert sorted(ids) == sorted(board["id"] for board in boards)
    for chunk in chunks:
        for board in chunk.boards:
            others = [c for c in chunks if c is not chunk]
            assert all(board["deal_hash"] not in {b["deal_hash"] for b in c.boards} for c in others)


def test_one_worker_gets_a_small_set_in_one_chunk():
    boards = _boards(30)
    chunks = plan_chunks(boards, {}, 40, 200, workers=1)
    assert [len(chunk.new_deals) for chunk in chunks] == [30]


def test_a_small_set_is_cut_so_that_no_worker_idles():
    boards = _boards(30, per_deal=2)
    chunks = plan_chunks(boards, {}, 40, 200, workers=2)
    assert [len(chunk.new_deals) for chunk in chunks] == [15, 15]
    _cover(chunks, boards)
    chunks = plan_chunks(boards, {}, 40, 200, workers=4)
    # whole deals of two boards under a cap of 15 boards: 7 deals a chunk, the rest in a fifth
    assert [len(chunk.new_deals) for chunk in chunks] == [7, 7, 7, 7, 2]
    _cover(chunks, boards)


def test_play_traces_alone_are_shared_out_too():
    # every table known already: only the boards' traces are work, cut by board count
    boards = _boards(10, per_deal=3)
    known = {board["deal_hash"]: object() for board in boards}
    chunks = plan_chunks(boards, known, 40, 200, workers=2)  # type: ignore[arg-type]
    assert [len(chunk.boards) for chunk in chunks] == [15, 15]
    assert all(not chunk.new_deals for chunk in chunks)
    _cover(chunks, boards)


def test_a_large_set_keeps_the_configured_chunk_sizes():
    chunks = plan_chunks(_boards(200), {}, 40, 200, workers=2)
    assert [len(chunk.new_deals) for chunk in chunks] == [40] * 5
