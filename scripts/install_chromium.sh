#!/usr/bin/env bash
# Debian's Chromium for the browser tests (tests/browser): Playwright drives it, never downloads a browser.
# Needs root and apt; elsewhere it says so and the browser tests are skipped with the reason.
set -u
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is not installed and this is not root with apt: the browser tests will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "installing Debian's chromium for the browser tests (once)"
apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 \
  || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; } \
  || { echo "apt-get could not install chromium: the browser tests will be skipped" >&2; exit 0; }
chromium --version
