#!/usr/bin/env python3
"""Runs a selfplay match as shards on a Ray cluster (or a local Ray instance) and merges them.

Each shard is one `selfplay ... --shard K/N` run in a Ray task; the driver collects the
shards' `match.tsv` files and runs `selfplay --merge` over them, which prints the table of the
whole match and writes its files. With fixed simulations (`--simulations`), the merged match
is game for game the one a single `selfplay` run plays.

    cargo build --release --example selfplay
    python3 scripts/ray_selfplay.py --shards 8 --out ray-out -- \
        --size 8 --games 400 --opening 2 --simulations 20000 --player-a best --player-b uct

`--address auto` joins a running cluster (`ray start --head` on one machine, `ray start
--address HEAD:6379` on the others); the selfplay binary must be at the same path on every
machine (a shared folder, or the same checkout built everywhere). Without `--address` a local
Ray instance with this machine's cores is started.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

DEFAULT_SELFPLAY = os.path.join("target", "release", "examples", "selfplay")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shards", type=int, required=True, help="number of shards")
    parser.add_argument("--out", required=True, help="output folder of the merged match")
    parser.add_argument("--selfplay", default=DEFAULT_SELFPLAY, help="the selfplay binary")
    parser.add_argument("--address", default=None, help="Ray cluster address (e.g. auto)")
    parser.add_argument("selfplay_args", nargs=argparse.REMAINDER,
                        help="arguments for selfplay, after --")
    args = parser.parse_args(argv)
    if args.shards < 1:
        parser.error(f"--shards {args.shards}: at least 1")
    if args.selfplay_args[:1] == ["--"]:
        args.selfplay_args = args.selfplay_args[1:]
    for flag in ("--shard", "--out", "--merge"):
        if flag in args.selfplay_args:
            parser.error(f"{flag} is set by the driver; leave it out of the selfplay arguments")
    args.selfplay = os.path.abspath(args.selfplay)
    if not os.access(args.selfplay, os.X_OK):
        parser.error(f"--selfplay {args.selfplay}: not an executable (cargo build --release "
                     "--example selfplay)")
    return args


def play_shard(selfplay, selfplay_args, index, count):
    """Plays one shard in a temporary folder; returns its match.tsv text and its seconds."""
    with tempfile.TemporaryDirectory() as out:
        start = time.monotonic()
        command = [selfplay, *selfplay_args, "--shard", f"{index}/{count}", "--out", out]
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"shard {index}/{count} failed ({run.returncode}): {run.stderr}")
        with open(os.path.join(out, "match.tsv"), encoding="utf-8") as f:
            return f.read(), time.monotonic() - start


def run(args):
    import ray  # imported here so that --help works without Ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(num_cpus=1)(play_shard)
        start = time.monotonic()
        pending = [task.remote(args.selfplay, args.selfplay_args, k, args.shards)
                   for k in range(args.shards)]
        results = ray.get(pending)
        wall = time.monotonic() - start
        cores = int(ray.cluster_resources().get("CPU", 1))
    finally:
        ray.shutdown()
    dirs = []
    for k, (text, _) in enumerate(results):
        shard_dir = os.path.join(args.out, "shards", f"shard-{k}")
        os.makedirs(shard_dir, exist_ok=True)
        with open(os.path.join(shard_dir, "match.tsv"), "w", encoding="utf-8") as f:
            f.write(text)
        dirs.append(shard_dir)
    merge = subprocess.run([args.selfplay, "--merge", *dirs, "--out", args.out],
                           capture_output=True, text=True, check=False)
    sys.stdout.write(merge.stdout)
    if merge.returncode != 0:
        sys.stderr.write(merge.stderr)
        return merge.returncode
    games = sum(text.count("\ngame\t") for text, _ in results)
    busy = sum(seconds for _, seconds in results)
    print(f"Ray: {args.shards} shards on {cores} cores, {games} games in {wall:.1f} s "
          f"({games / wall:.2f} games/s; {games / busy:.2f} games/s per busy core)")
    return 0


if __name__ == "__main__":
    sys.exit(run(parse_args(sys.argv[1:])))
