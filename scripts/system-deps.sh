#!/usr/bin/env sh
# What the suite needs from the system: Debian's Chromium (the browser tests) and gettext's
# msgfmt (the catalogue test). Installed through apt when missing and we are root; otherwise
# stop at once, naming the one command to run.
set -eu
missing=""
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing="$missing chromium"
command -v msgfmt >/dev/null 2>&1 || missing="$missing gettext"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing$missing through apt-get (the browser and catalogue tests need them)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
  exit 0
fi
echo "The test suite needs$missing. Install it, then run make test again:" >&2
echo "  sudo apt-get install$missing" >&2
exit 2
