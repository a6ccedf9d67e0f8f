#!/usr/bin/env bash
# axe-core for the browser walk's accessibility check (tests/browser/test_walk.py): fetched from npm at install
# time, its tarball's sha512 checked against the pin below, and only axe.min.js (and its licence) kept in a
# git-ignored cache. Nothing of it is committed. Without npm it says so and the walk fails in CI with the reason.
set -u
VERSION=4.10.3
INTEGRITY=sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg==
DEST=.ci/cache/axe-core
cd "$(dirname "$0")/.."
[ -s "$DEST/axe.min.js" ] && [ "$(cat "$DEST/PIN" 2>/dev/null)" = "$VERSION $INTEGRITY" ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed: axe-core $VERSION cannot be fetched and the browser walk will fail in CI" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fetching axe-core $VERSION from npm for the browser walk (once)"
npm pack "axe-core@$VERSION" --pack-destination "$work" --silent >/dev/null \
  || { echo "npm pack axe-core@$VERSION failed" >&2; exit 1; }
tarball="$work/axe-core-$VERSION.tgz"
got="sha512-$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$tarball")"
if [ "$got" != "$INTEGRITY" ]; then
  echo "axe-core $VERSION: integrity $got is not the pinned $INTEGRITY; not installed" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/axe.min.js package/LICENSE || exit 1
mkdir -p "$DEST"
mv "$work/package/axe.min.js" "$work/package/LICENSE" "$DEST/"
echo "$VERSION $INTEGRITY" > "$DEST/PIN"
echo "axe-core $VERSION (sha512 checked) in $DEST"
