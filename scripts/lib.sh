# Shared by scripts/run and scripts/test: install what the build needs, once, quietly.

# The Debian packages OpenEventKit builds and runs with: the system SQLite that GRDB uses,
# GNU readline for the samples' line editing, libdbus-1 for the alarm agent's desktop
# notifications, and the tz database the recurrence engine reads.
required_packages=(libsqlite3-dev libreadline-dev libdbus-1-dev tzdata)

install_missing_packages() {
  local missing=()
  for package in "${required_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing ${missing[*]}…" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: Swift 6 is needed (https://www.swift.org/install/linux/); 'swift' is not on PATH" >&2
    exit 1
  fi
}
