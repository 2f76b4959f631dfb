# Shared by scripts/run and scripts/test (sourced, not run): installs what building Tongwen needs on
# Debian/Ubuntu when it is missing. Needs root (or the packages already installed).

# System packages: a C toolchain, pkg-config, WebKitGTK 4.1 for the desktop window, Xvfb and
# WebKitWebDriver for the GUI tests, Noto CJK so Chinese text renders, python3 for the eval-dev scorer.
# libssl-dev: TLS to a shared library's PostgreSQL server (native-tls, the system's OpenSSL).
TONGWEN_PACKAGES=(build-essential pkg-config python3 libwebkit2gtk-4.1-dev libssl-dev xvfb xauth
  webkit2gtk-driver fonts-noto-cjk)
# The test suite also starts a throw-away PostgreSQL 15 server (scripts/postgres.sh), and tests the
# installed .deb (scripts/package-test.sh): its linters, the desktop entry's validator, man, and a
# private session bus for the one-window-per-session test.
TONGWEN_TEST_PACKAGES=(postgresql-15 lintian rpmlint rpm desktop-file-utils man-db dbus-daemon)

ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "== installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ensure_cargo() {
  # cargo-installed tools (tauri-driver) live here.
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! command -v cargo >/dev/null 2>&1 && [ -f "$HOME/.cargo/env" ]; then
    . "$HOME/.cargo/env"
  fi
  command -v cargo >/dev/null 2>&1 || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
}
