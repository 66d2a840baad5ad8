"""cardgen doctor: a line per dependency, install commands for what is missing, exit 1 only for a build's needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.project.doctor import PLATFORMS, SYSTEM_INSTALL, _harfbuzz_version, _requirement, checks, exit_code
from missing_modules import without


def test_this_machine_has_everything_a_build_needs():
    found = {check.name: check for check in checks()}
    assert exit_code(list(found.values())) == 0
    for name in ("Python", "click", "weasyprint", "reportlab", "Pango", "HarfBuzz", "Ghostscript", "pdftotext",
                 "cache folder"):
        assert found[name].ok, found[name]
    from weasyprint.text.ffi import pango

    number = pango.pango_version()
    assert found["Pango"].version == f"{number // 10000}.{number // 100 % 100}.{number % 100}"
    gs = subprocess.run(["gs", "--version"], capture_output=True, text=True).stdout.strip()
    assert found["Ghostscript"].version == gs
    assert found["dask"].needed_for == "cardgen sweep" and not found["dask"].required
    assert found["weasyprint"].required


def test_cli_prints_a_line_per_check_and_json(tmp_path):
    plain = CliRunner().invoke(cli, ["doctor"])
    assert plain.exit_code == 0, plain.output
    assert "everything a build needs is here" in plain.output
    assert len([line for line in plain.output.splitlines() if line.startswith("ok ")]) == len(checks())
    data = json.loads(CliRunner().invoke(cli, ["doctor", "--json"]).output)
    assert data["ok"] is True and {check["name"] for check in data["checks"]} >= {"Pango", "HarfBuzz", "qpdf"}


def test_missing_programs_name_their_install_and_do_not_fail_a_build(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path)}  # no gs, pdftotext, qpdf, chromium here
    done = subprocess.run([sys.executable, "-m", "cardgen", "doctor"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "missing  Ghostscript" in done.stdout
    for platform in PLATFORMS:
        assert f"{platform}:" in done.stdout
    assert "sudo apt install ghostscript" in done.stdout and "brew install poppler" in done.stdout
    assert "missing for other commands: Ghostscript" in done.stdout


def test_without_weasyprint_a_build_cannot_run_and_doctor_says_so(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "doctor", "--json"], capture_output=True, text=True,
                          env=without(tmp_path, ["weasyprint"]))
    assert done.returncode == 1, done.stdout + done.stderr
    data = {check["name"]: check for check in json.loads(done.stdout)["checks"]}
    assert data["Pango"]["status"] == "missing" and data["Pango"]["required"]
    assert data["Pango"]["install"] == SYSTEM_INSTALL["Pango"]
    assert "pacman -S mingw-w64-ucrt-x86_64-pango" in data["Pango"]["install"]["Windows"]
    plain = subprocess.run([sys.executable, "-m", "cardgen", "doctor"], capture_output=True, text=True,
                           env=without(tmp_path, ["weasyprint"]))
    assert plain.returncode == 1 and "MISSING  Pango" in plain.stdout
    assert "cardgen build cannot run here: Pango, HarfBuzz missing" in plain.stdout


def test_requirement_lines_are_read():
    assert _requirement('dask[distributed]>=2024.1; extra == "sweep"') == ("dask", "2024.1", "sweep")
    assert _requirement("click>=8.1") == ("click", "8.1", None)
    assert _requirement("pyyaml") == ("pyyaml", None, None)


def test_harfbuzz_version_is_found_from_the_one_query_weasyprint_declares():
    class Fake:
        def hb_version_atleast(self, major, minor, micro):
            return (major, minor, micro) <= (8, 3, 1)

    assert _harfbuzz_version(Fake()) == (8, 3, 1)
