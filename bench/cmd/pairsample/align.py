#!/usr/bin/env python3
"""Align the old and new sentences pairsample prints and draw a seeded sample
of edited pairs (testdata/labels/crossdate-pairs.md).

For each page: difflib.SequenceMatcher over the two lists of sentence texts
(whitespace-normalised) finds the unchanged runs; inside each gap between
them, every old sentence is scored against every new one by
difflib.SequenceMatcher(None, old, new, autojunk=False).ratio(), and pairs
with a ratio of at least 0.5 are taken best first (ties by old then new
ordinal), each sentence in at most one pair. A pair whose normalised texts
differ is a candidate edited pair.

The sample: the candidates, in page then old-ordinal order, shuffled by
random.Random(seed); taken in that order, skipping a candidate whose page
already gives cap = floor(0.4 * n) of the sample, until n are taken.

    python3 bench/cmd/pairsample/align.py --seed 30 --n 120 < sentences.jsonl > sample.jsonl

The counts of candidates per page go to standard error.
"""

import argparse
import collections
import difflib
import json
import random
import sys


def norm(text):
    return " ".join(text.split())


def gap_pairs(old, new, threshold):
    """Pairs (ratio, i, j) of old[i], new[j] in one gap, best first."""
    scored = []
    for i, o in enumerate(old):
        for j, n in enumerate(new):
            sm = difflib.SequenceMatcher(None, o, n, autojunk=False)
            if sm.real_quick_ratio() < threshold or sm.quick_ratio() < threshold:
                continue
            r = sm.ratio()
            if r >= threshold:
                scored.append((-r, i, j))
    scored.sort()
    used_o, used_n, out = set(), set(), []
    for r, i, j in scored:
        if i in used_o or j in used_n:
            continue
        used_o.add(i)
        used_n.add(j)
        out.append((-r, i, j))
    return out


def align(old, new, threshold):
    """Candidate pairs (old sentence, new sentence, ratio) of one page."""
    a = [norm(s["text"]) for s in old]
    b = [norm(s["text"]) for s in new]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "replace":
            continue  # equal runs are unchanged; a pure insert or delete has no partner
        for r, i, j in gap_pairs(a[i1:i2], b[j1:j2], threshold):
            if a[i1 + i] != b[j1 + j]:
                out.append((old[i1 + i], new[j1 + j], r))
    out.sort(key=lambda p: p[0]["ordinal"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--share", type=float, default=0.4, help="most of the sample one page may give")
    ap.add_argument("--all", action="store_true", help="print every candidate, not a sample")
    args = ap.parse_args()

    pages = collections.defaultdict(lambda: {"old": [], "new": []})
    for line in sys.stdin:
        s = json.loads(line)
        pages[s["page_id"]][s["side"]].append(s)
    candidates = []
    for pid in sorted(pages):
        p = pages[pid]
        got = align(p["old"], p["new"], args.threshold)
        title = p["new"][0]["title"] if p["new"] else ""
        print(f"page {pid} ({title}): {len(p['old'])} old, {len(p['new'])} new sentences, "
              f"{len(got)} candidates", file=sys.stderr)
        candidates.extend(got)
    print(f"all pages: {len(candidates)} candidates", file=sys.stderr)

    if args.all:
        chosen = candidates
    else:
        order = list(range(len(candidates)))
        random.Random(args.seed).shuffle(order)
        cap = int(args.share * args.n)
        per_page = collections.Counter()
        chosen = []
        for k in order:
            pid = candidates[k][0]["page_id"]
            if per_page[pid] >= cap:
                continue
            per_page[pid] += 1
            chosen.append(candidates[k])
            if len(chosen) == args.n:
                break
        chosen.sort(key=lambda p: (p[0]["page_id"], p[0]["ordinal"]))
        print("sample by page: " + ", ".join(f"{pid} {n}" for pid, n in sorted(per_page.items())),
              file=sys.stderr)
    for o, n, r in chosen:
        print(json.dumps({"ratio": round(r, 3), "old": o, "new": n}, ensure_ascii=False))


if __name__ == "__main__":
    main()
