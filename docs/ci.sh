#!/usr/bin/env bash
# cardgen in a publisher's CI, as a plain shell script (docs/ci.md has the GitHub Actions workflow
# with the same steps): install cardgen, check the machine, validate, build, keep the print files.
#
#   bash ci.sh                      from the root of a repository holding content/<game>/...
#
# Settings (environment):
#   CONTENT        the content folder                          (default: content)
#   OUT            where the build writes                      (default: print-files)
#   CARDGEN_SPEC   what pip installs                           (default: cardgen; a version pin such
#                  as cardgen==0.1.0, or a wheel file your team built)
#   CARDGEN        an installed cardgen to use instead of installing one (skips the install)
#   BUILD_OPTIONS  more options for 'cardgen build'            (e.g. "--strict --printer eu-pdfx4")
# The system libraries come first (Debian/Ubuntu as root; 'cardgen doctor' names them elsewhere):
#   apt-get install -y libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 ghostscript poppler-utils
set -euo pipefail

CONTENT=${CONTENT:-content}
OUT=${OUT:-print-files}
CARDGEN_SPEC=${CARDGEN_SPEC:-cardgen}

# 1. install cardgen into a virtual environment of its own
if [ -z "${CARDGEN:-}" ]; then
  python3 -m venv .cardgen-venv
  .cardgen-venv/bin/python -m pip install --quiet --disable-pip-version-check "$CARDGEN_SPEC"
  CARDGEN=.cardgen-venv/bin/cardgen
fi
"$CARDGEN" --version

# 2. is everything a build needs here? (exit 1 names what is missing and how to install it)
"$CARDGEN" doctor

# 3. every card, text and rule of every game checks out
"$CARDGEN" --content "$CONTENT" validate

# 4. build: dates in the PDFs from the last commit, so the same sources give the same files
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
# shellcheck disable=SC2086
"$CARDGEN" --content "$CONTENT" build --out "$OUT" ${BUILD_OPTIONS:-}

# 5. keep the print files: one archive of the output folder (manifest.json and index.html list them)
tar -czf "$OUT.tar.gz" -C "$OUT" .
echo "print files: $OUT/ and $OUT.tar.gz"
