#!/usr/bin/env bash
# Renders a `graticule report` page in headless Chromium (Debian's `chromium` package) and
# writes a PNG, then checks the picture is not blank (a page with its charts drawn
# compresses to far more than an empty one).
#   Benchmarks/Report/screenshot.sh reports/report.html reports/report.png [WIDTHxHEIGHT]
set -euo pipefail
page=$1; png=$2; size=${3:-1200x3000}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "screenshot: chromium is not installed (apt-get install chromium)" >&2; exit 3; }
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
rm -f "$png"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="${size/x/,}" \
  --screenshot="$png" "file://$abs" >/dev/null 2>&1
[ -s "$png" ] || { echo "screenshot: chromium wrote no picture" >&2; exit 1; }
bytes=$(stat -c %s "$png")
[ "$bytes" -gt 20000 ] || { echo "screenshot: $png is only $bytes bytes; the page looks blank" >&2; exit 1; }
echo "screenshot: $png ($bytes bytes)"
