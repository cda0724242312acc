#!/usr/bin/env python3
"""Print the markdown table of the `sampler` bench from criterion's estimates.

Usage: python3 table.py <criterion dir, e.g. $CARGO_TARGET_DIR/criterion>
"""
import json
import os
import sys

root = sys.argv[1]
groups = ["sample", "update_sample", "churn"]
impls = ["dense", "tree_index", "weighted_index"]
sizes = [37, 169, 271, 4096, 65536]


def mean_ns(group, ty, impl, n):
    path = os.path.join(root, f"{group}_{ty}", impl, str(n), "new", "estimates.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["mean"]["point_estimate"]


print("| operation | weight | n | DenseSampler (ns) | WeightedTreeIndex (ns) | WeightedIndex (ns) | Dense / TreeIndex |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for group in groups:
    for ty in ["u32", "f64"]:
        for n in sizes:
            t = {i: mean_ns(group, ty, i, n) for i in impls}
            if t["dense"] is None:
                continue
            cell = lambda v: "-" if v is None else f"{v:.1f}"
            ratio = "-" if t["tree_index"] is None else f"{t['dense'] / t['tree_index']:.2f}"
            print(f"| {group} | {ty} | {n} | {cell(t['dense'])} | {cell(t['tree_index'])} | {cell(t['weighted_index'])} | {ratio} |")
