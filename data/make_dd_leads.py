"""Make ``dd_leads.bin``: every opening lead's value where the public archives give the lead.

    python data/make_dd_leads.py                  # Valet's travellers and the ACBL recaps
    python data/make_dd_leads.py --jobs 2 --store /tmp/build.sqlite SOURCES...

Cleans the sources as ``bridgerank run --to clean`` does (into ``--work``, kept), takes every
deal, strain and opening leader of a board whose play is its lead alone, values every lead
of those the store (``--store``, default: the machine's DD store) does not hold yet, batch by
batch, and writes them all to ``bridgerank/data/dd_leads.bin``
(:mod:`bridgerank.dds.shipped_leads`). Interrupted, it resumes: what was solved is in the store.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bridgerank.bridge.auction import Contract, parse_contract
from bridgerank.bridge.cards import SEAT_INDEX
from bridgerank.data.make_dd_tables import SHARED, cleaned
from bridgerank.dds.dd_store import DDStore, default_location
from bridgerank.dds.shipped_leads import read_shipped_leads, write_shipped_leads
from bridgerank.dds.solver import LEAD_BATCH, LeadRequest, solve_leads, solver_version

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCES = [SHARED / "travellers" / "valet", SHARED / "acbl" / "results"]
_QUERY = "select distinct deal, lead, contract from boards where length(play) = 2"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--store", default=str(default_location()), help="DD store to fill")
    parser.add_argument("--work", type=Path, default=Path("out/make_dd_leads"))
    parser.add_argument("--output", type=Path, default=HERE / "dd_leads.bin")
    args = parser.parse_args()

    requests = set()
    for deal, lead, contract in cleaned(args.sources, args.work, _QUERY):
        parsed = parse_contract(contract)
        if isinstance(parsed, Contract) and lead in SEAT_INDEX:
            requests.add(LeadRequest(deal, SEAT_INDEX[lead], parsed.strain))
    store = DDStore(args.store, solver_version())
    if store.warning:
        sys.exit(f"error: {store.warning}")
    wanted = sorted(requests)
    missing = sorted(requests - set(store.leads(wanted)))
    print(f"{len(wanted):,} leads to value; {len(missing):,} not in the store")
    started = time.monotonic()
    for start in range(0, len(missing), LEAD_BATCH):
        batch = missing[start : start + LEAD_BATCH]
        store.add_leads({r: v for r, (v, _) in zip(batch, solve_leads(batch)) if v is not None})
        done = start + len(batch)
        rate = done / max(time.monotonic() - started, 1e-9)
        print(f"  {done:,} valued, {rate:.1f} a second", flush=True)
    leads = store.leads(wanted)
    output = args.output
    count = write_shipped_leads(output, solver_version(), leads.items())
    solver, _, read = read_shipped_leads(output)
    assert read == leads and solver == solver_version()
    print(f"{output}: {count:,} leads, {output.stat().st_size / 1024:,.0f} KB, solver {solver}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
