#!/usr/bin/env bash
# Debian's Chromium and Korean fonts (fonts-noto-cjk, so screenshots show Hangul, not boxes) for the browser tests
# (tests/browser): Playwright drives it, never downloads a browser. Needs root and apt; elsewhere it says so, and
# the browser tests are skipped with the reason — except in CI (.ci/run), where they fail with it.
set -u
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fc-list :lang=ko 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "${missing[*]} not installed and this is not root with apt: the browser tests will be skipped (failed in CI)" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "installing Debian's ${missing[*]} for the browser tests (once)"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
  || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; } \
  || { echo "apt-get could not install ${missing[*]}: the browser tests will be skipped (failed in CI)" >&2; exit 0; }
chromium --version
