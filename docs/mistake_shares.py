"""Print how often each verdict calls an auction a mistake, for the field and per player:
the thesis's side verdicts against the calls judged by the par after them (docs/dds.md).

    python docs/mistake_shares.py out/bridgerank.db            # after bridgerank run
    python docs/mistake_shares.py out/bridgerank.db --top 20 --min-auctions 100
"""

from __future__ import annotations

import argparse
import statistics

from sqlalchemy import create_engine

from bridgerank.dds.mistake_shares import mistake_shares


def _quartiles(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:.0%}" if values else "-"
    low, middle, high = statistics.quantiles(values, n=4)
    return f"{middle:.0%} ({low:.0%}-{high:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", help="a SQLite file or a SQLAlchemy URL")
    parser.add_argument("--top", type=int, default=12, help="players listed, most auctions first")
    parser.add_argument("--min-auctions", type=int, default=50)
    args = parser.parse_args()
    url = args.database if "://" in args.database else f"sqlite:///{args.database}"
    with create_engine(url).connect() as conn:
        shares = mistake_shares(conn)
    print(
        f"side-auctions: {shares.side_auctions:,}; marked as a mistake: thesis "
        f"{shares.thesis_marked:,} ({shares.share(shares.thesis_marked):.0%}), par "
        f"{shares.par_marked:,} ({shares.share(shares.par_marked):.0%})"
    )
    regular = [row for row in shares.players if row.auctions >= args.min_auctions]
    print(
        f"players with {args.min_auctions} auctions or more: {len(regular)}; their auctions "
        f"marked, median (quartiles): thesis {_quartiles([row.thesis for row in regular])} "
        f"(the side's), par {_quartiles([row.par for row in regular])} (their own call)"
    )
    print(f"{'player':<28}{'auctions':>9}{'thesis':>8}{'par':>6}")
    for row in shares.players[: args.top]:
        print(f"{row.player[:27]:<28}{row.auctions:>9,}{row.thesis:>8.0%}{row.par:>6.0%}")


if __name__ == "__main__":
    main()
