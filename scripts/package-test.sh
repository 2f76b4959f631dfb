#!/usr/bin/env bash
# Tests the packages scripts/package built (run by scripts/test, as root): lints the .deb and the
# .rpm, installs the .deb with apt, then tests the installed files: the command, its manual pages and
# bash completion, the desktop entry and its MIME types, the desktop app under WebDriver (the first
# hour, "Open with", one window per session), and that installing again and removing the package leave
# a user's library as it was.
set -euo pipefail
trap 'echo "package test failed at line $LINENO: $BASH_COMMAND" >&2' ERR

deb=$(ls dist/tongwen_*_amd64.deb)
rpm=$(ls dist/tongwen-*.x86_64.rpm)
echo "== package sizes: $(du -k "$deb" | cut -f1) KB .deb, $(du -k "$rpm" | cut -f1) KB .rpm"
size=$(stat -c %s "$deb")
[ "$size" -lt $((40 * 1024 * 1024)) ] || { echo "the .deb is $size bytes, over 40 MB" >&2; exit 1; }

echo "== lintian (errors and warnings fail)"
lintian --fail-on error,warning --allow-root "$deb"
echo "== rpmlint (errors fail)"
rpmlint -r scripts/rpmlintrc "$rpm"

echo "== the .rpm holds the same files"
rpm -qlp "$rpm" >"${TMPDIR:-/tmp}/rpm-files"
for f in /usr/bin/tongwen /usr/bin/tongwen-desktop /usr/share/applications/tongwen.desktop \
  /usr/share/man/man1/tongwen.1.gz /usr/share/bash-completion/completions/tongwen \
  /usr/share/licenses/tongwen/copyright; do
  grep -qx "$f" "${TMPDIR:-/tmp}/rpm-files" || { echo "the .rpm lacks $f" >&2; exit 1; }
done

# A user's library before the package is installed, made by the command built from source.
user=$(mktemp -d)
export XDG_DATA_HOME="$user/data" XDG_CONFIG_HOME="$user/config"
unset TONGWEN_LIBRARY
printf '这一段在安装软件包之前加入文献库，安装、重装和卸载都不应改变它。\n' >"$user/before.txt"
"$TONGWEN_CLI_BIN" library add "$user/before.txt" >/dev/null
library="$XDG_DATA_HOME/tongwen/library.sqlite"
before=$(sha256sum "$library" | cut -d' ' -f1)

echo "== apt-get install ./$deb"
apt-get remove -y -qq tongwen >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$deb"
installed=$(dpkg-query -W -f='${Installed-Size}' tongwen)
echo "installed size: $installed KB"

echo "== the installed command, manual pages, completion"
[ "$(command -v tongwen)" = /usr/bin/tongwen ]
# (Outputs are read whole before they are searched: `grep -q` would stop a writer mid-way under pipefail.)
[ "$(tongwen --version)" = "tongwen $(dpkg-query -W -f='${Version}' tongwen)" ]
listed() { local out; out=$("$1" library list); grep -qw before <<<"$out"; }
listed tongwen
for page in tongwen tongwen-check tongwen-library-add tongwen-desktop; do
  text=$(MANPAGER=cat MANWIDTH=100 man "$page" 2>/dev/null) || { echo "man $page: no page" >&2; exit 1; }
  grep -q "^NAME" <<<"$text"
done
grep -q "offline plagiarism checker" <<<"$(MANPAGER=cat man tongwen)"
# Bash completes the command's own subcommands from the installed script.
completed=$(bash -c '. /usr/share/bash-completion/completions/tongwen
  COMP_WORDS=(tongwen lib); COMP_CWORD=1; COMP_LINE="tongwen lib"; COMP_POINT=${#COMP_LINE}
  _tongwen tongwen lib tongwen; printf "%s\n" "${COMPREPLY[@]}"')
[ "$completed" = library ] || { echo "bash completion of 'tongwen lib': $completed" >&2; exit 1; }
grep -q "compdef tongwen" /usr/share/zsh/vendor-completions/_tongwen
grep -q "complete -c tongwen" /usr/share/fish/vendor_completions.d/tongwen.fish
grep -q "^- jieba-rs " <<<"$(zcat /usr/share/doc/tongwen/THIRD-PARTY-NOTICES.md.gz)"

echo "== the desktop entry and its MIME types"
entry=/usr/share/applications/tongwen.desktop
desktop-file-validate "$entry"
grep -q "^Exec=tongwen-desktop %F$" "$entry"
grep -q "^Name\[zh_CN\]=" "$entry"
for type in application/pdf text/plain application/vnd.openxmlformats-officedocument.wordprocessingml.document; do
  grep -q "^MimeType=.*$type;" "$entry"
  grep -q "^$type=.*tongwen.desktop" /usr/share/applications/mimeinfo.cache \
    || { echo "$type is not offered to tongwen.desktop (mimeinfo.cache)" >&2; exit 1; }
done
for size in 32x32 128x128 512x512; do
  [ -f "/usr/share/icons/hicolor/$size/apps/tongwen-desktop.png" ]
done

echo "== the installed app under WebDriver (first hour, Open with, one window per session)"
TONGWEN_DESKTOP_BIN=/usr/bin/tongwen-desktop TONGWEN_CLI_BIN=/usr/bin/tongwen \
  TONGWEN_DESKTOP_ENTRY="$entry" \
  dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test -p tongwen-e2e --locked --test package --test desktop -- --test-threads=1 \
  first_hour open_with a_second_start

echo "== upgrading to a newer package and removing it keep the user's library"
# The newer package: the same files under a higher version.
work=$(mktemp -d)
dpkg-deb -R "$deb" "$work/pkg"
sed -i 's/^Version: \(.*\)$/Version: \1+1/' "$work/pkg/DEBIAN/control"
dpkg-deb -b "$work/pkg" "$work/tongwen-newer.deb" >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$work/tongwen-newer.deb" >/dev/null
[[ "$(dpkg-query -W -f='${Version}' tongwen)" == *+1 ]]
listed tongwen
[ "$(sha256sum "$library" | cut -d' ' -f1)" = "$before" ]
rm -rf "$work"
apt-get remove -y -qq tongwen >/dev/null
[ ! -e /usr/bin/tongwen ] && [ ! -e "$entry" ]
[ "$(sha256sum "$library" | cut -d' ' -f1)" = "$before" ]
listed "$TONGWEN_CLI_BIN"
rm -rf "$user"
echo "== packages: all checks passed"
