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

# The one Python environment the tests and scripts use, in .build/python (never committed):
# made from scripts/requirements.txt, every package pinned, and made again from nothing when
# that file or the python3 it was made with changes (a stamp holds both), so no package
# lingers from an earlier list and nothing is installed outside it. Exports its interpreter
# as OPENEVENTKIT_PYTHON, which the tests run (Tests/TestSupport/Python.swift).
python_environment() {
  local environment=.build/python
  command -v python3 >/dev/null 2>&1 || { required_packages=(python3) && install_missing_packages; }
  # Which python3 and which version (one start of it: pyenv's shims are slow to start). Debian's
  # python3 makes environments only with python3-venv (ensurepip) installed.
  local identity='import os, sys, ensurepip, venv; print(os.path.realpath(sys.executable), sys.version.split()[0])'
  local stamp
  stamp=$(python3 -c "$identity" 2>/dev/null) \
    || { required_packages=(python3-venv) && install_missing_packages && stamp=$(python3 -c "$identity"); }
  stamp="$(sha256sum scripts/requirements.txt | cut -d' ' -f1) $stamp"
  mkdir -p .build
  # Two scripts starting at once make it once.
  exec {python_lock}>.build/python.lock
  flock "$python_lock"
  if [ "$(cat "$environment/stamp" 2>/dev/null)" != "$stamp" ] \
    || ! "$environment/bin/python3" -c '' 2>/dev/null; then
    local start=$SECONDS
    echo "Making the Python environment $environment from scripts/requirements.txt…" >&2
    rm -rf "$environment"
    python3 -m venv "$environment"
    "$environment/bin/python3" -m pip install -q --disable-pip-version-check --no-deps \
      --require-virtualenv -r scripts/requirements.txt
    # --no-deps installs the list as it is: a dependency it lacks is an error here, not a
    # package of whatever version pip would choose.
    local check
    check=$("$environment/bin/python3" -m pip check 2>&1) || {
      echo "error: scripts/requirements.txt lacks what its packages need: $check" >&2
      exit 1
    }
    echo "$stamp" >"$environment/stamp"
    echo "Python environment made in $((SECONDS - start)) s" >&2
  fi
  flock -u "$python_lock"
  exec {python_lock}>&-
  OPENEVENTKIT_PYTHON="$PWD/$environment/bin/python3"
  export OPENEVENTKIT_PYTHON
}

# How many tests Swift Testing runs at once. Unbounded, it starts all of them together, and
# on 2 cores its pool of 2 threads runs the synchronous tests' bodies one after another
# while every waiting async test's next step queues behind them: a 3-second fetch deadline
# lapsed and notices were seen 160 to 210 s late (issue 46). With 8 at once an async test
# waits behind 7 others at most; the whole run also took less time (218 s against 262 s on
# an idle 2-core machine). The variable is Swift Testing's own (6.3, marked experimental).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}"
