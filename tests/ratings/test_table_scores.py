"""Each table's score, matchpoints and IMPs as the rate stage stores them (``table_scores``),
worked by hand."""

from __future__ import annotations

from bridgerank.ratings.table_scores import table_scores


def _board(board_id, event, contract, declarer, result, room="", deal="d1", **more):
    return {
        "id": board_id,
        "event": event,
        "deal_hash": deal,
        "contract": contract,
        "declarer": declarer,
        "result": result,
        "ns_vulnerable": False,
        "ew_vulnerable": False,
        "room": room,
        "year": 2020,
        **more,
    }


def test_a_pair_event_traveller_is_matchpointed():
    # 4S making 10 (+420), 4S one down (-50), 3NT making 9 (+400); one table with no result
    rows = table_scores(
        [
            _board(1, "club", "4S", "N", 10),
            _board(2, "club", "4S", "N", 9),
            _board(3, "club", "3N", "S", 9),
            _board(4, "club", "4S", "N", None),
        ]
    )
    by_board = {row["board_id"]: row for row in rows}
    assert [by_board[b]["ns_score"] for b in (1, 2, 3, 4)] == [420, -50, 400, None]
    # the top beats both others (100%), the bottom neither (0%), the middle one of two
    assert [by_board[b]["ns_percent"] for b in (1, 2, 3)] == [100.0, 0.0, 50.0]
    assert by_board[4]["ns_percent"] is None
    assert all(row["imps"] is None for row in rows)


def test_a_team_board_gives_its_open_room_the_imps_and_two_tables_no_matchpoints():
    rows = table_scores(
        [
            _board(1, "teams", "4S", "N", 10, room="Open"),  # +420
            _board(2, "teams", "4S", "N", 9, room="Closed"),  # one down: N-S -50
            _board(3, "other", "4S", "N", 10, room="Open"),  # another event: apart
        ]
    )
    by_board = {row["board_id"]: row for row in rows}
    assert by_board[1]["imps"] == 10  # 420 - (-50) = 470: 10 IMPs to the open room's N-S
    assert by_board[2]["imps"] is None  # the closed room's are the open room's, signed
    assert by_board[3]["imps"] is None and by_board[3]["ns_score"] == 420
    assert all(row["ns_percent"] is None for row in rows)
