#!/usr/bin/env python3
"""Checks indexed-job.yaml: statically (the fields an Indexed Job and its merge need, and
that they agree), then end to end by running its own shard and merge commands here, one
process per index as Kubernetes would, with /data a temporary folder, and comparing the
merged profile with one run over the same archive (every CSV row but run timing).

Usage: check.py GRATICULE ARCHIVE.pmtiles. Exit 1 on any problem."""
import os, re, subprocess, sys, tempfile

try:
    from ruamel.yaml import YAML
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "ruamel.yaml"], check=True)
    from ruamel.yaml import YAML

graticule, archive = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
docs = [d for d in YAML(typ="safe").load_all(open(os.path.join(here, "indexed-job.yaml"))) if d]
problems = []


def need(ok, what):
    if not ok:
        problems.append(what)


by_kind = {}
for d in docs:
    by_kind.setdefault(d.get("kind"), []).append(d)
pvcs, jobs = by_kind.get("PersistentVolumeClaim", []), by_kind.get("Job", [])
need(len(pvcs) == 1 and len(jobs) == 2, "one PersistentVolumeClaim and two Jobs")
claim = pvcs[0]["metadata"]["name"] if pvcs else None
need(pvcs and "ReadWriteMany" in pvcs[0]["spec"]["accessModes"], "the volume is shared by every pod (ReadWriteMany)")
indexed = [j for j in jobs if j["spec"].get("completionMode") == "Indexed"]
need(len(indexed) == 1, "exactly one Job with completionMode: Indexed")
merge_jobs = [j for j in jobs if j not in indexed]


def container(job):
    spec = job["spec"]["template"]["spec"]
    need(spec.get("restartPolicy") in ("Never", "OnFailure"), f"{job['metadata']['name']}: restartPolicy Never or OnFailure")
    vols = {v["name"]: v.get("persistentVolumeClaim", {}).get("claimName") for v in spec.get("volumes", [])}
    c = spec["containers"][0]
    mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
    need(any(vols.get(n) == claim and p == "/data" for n, p in mounts.items()), f"{job['metadata']['name']}: the claim mounted at /data")
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    need(c.get("command") == ["sh", "-c"] and len(c.get("args", [])) == 1, f"{job['metadata']['name']}: one sh -c script")
    return " ".join(c.get("args", [""])[0].split()), env


if indexed and merge_jobs:
    spec = indexed[0]["spec"]
    n = spec.get("completions")
    need(isinstance(n, int) and n >= 1 and spec.get("parallelism") == n, "completions = parallelism = the number of shards")
    shard_script, shard_env = container(indexed[0])
    merge_script, merge_env = container(merge_jobs[0])
    need(shard_env.get("SHARDS") == str(n) and merge_env.get("SHARDS") == str(n), "SHARDS in both Jobs = completions")
    need('--shard "$JOB_COMPLETION_INDEX/$SHARDS"' in shard_script, "the shard index comes from JOB_COMPLETION_INDEX")
    need(re.search(r'--output "/data/shards/shard-\$JOB_COMPLETION_INDEX\.json"', shard_script), "each index writes its own shard file on the volume")
    need("graticule profile merge /data/shards/shard-*.json" in merge_script, "the merge reads every shard file")
    need('-ge "$SHARDS"' in merge_script, "the merge waits for all shard files")

if problems:
    sys.exit("indexed-job.yaml: " + "; ".join(problems))

# End to end: the manifest's own commands, one process per index, /data a temporary folder.
with tempfile.TemporaryDirectory() as data:
    os.symlink(archive, os.path.join(data, "dataset.pmtiles"))
    def local(script):
        return re.sub(r"/data(?=/)", data, script).replace("graticule profile", graticule + " profile")
    procs = [subprocess.Popen(["sh", "-c", local(shard_script)], env={**os.environ, "SHARDS": str(n), "JOB_COMPLETION_INDEX": str(i)},
                              stdout=subprocess.DEVNULL) for i in range(n)]
    for p in procs:
        if p.wait() != 0:
            sys.exit("a shard command failed")
    subprocess.run(["sh", "-c", local(merge_script)], env={**os.environ, "SHARDS": str(n)}, stdout=subprocess.DEVNULL, check=True)
    one = os.path.join(data, "one.csv")
    subprocess.run([graticule, "profile", archive, "--zoom", "6", "--jobs", "1", "--csv", one], stdout=subprocess.DEVNULL, check=True)
    figures = lambda p: [l for l in open(p) if not l.startswith("run,")]
    if figures(one) != figures(os.path.join(data, "profile.csv")):
        sys.exit("the merged profile differs from one run")
    print(f"indexed-job.yaml: {n} shards run as the manifest runs them, merged: the figures of one run "
          f"({len(figures(one))} rows); profile.json and profile.html written")
