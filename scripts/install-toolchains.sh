#!/bin/sh
# Installs the toolchains the tests need beyond Node.js, from the operating system's packages: PHP CLI with
# curl (sdks/php), Python 3 with cryptography (sdks/python), a JDK 17 (sdks/java) (sdks/README.md), and
# promtool (Debian's prometheus package), which checks and unit-tests the alert rules of deploy/k8s, and
# jq, which the sandbox guide's commands use (its walk-through test runs them).
# Debian or Ubuntu; run as root, or as a user who may sudo (apt-get then runs through sudo).
# Idempotent: when everything is there it returns at once, without touching apt.
set -eu

PACKAGES="php-cli php-curl python3 python3-cryptography openjdk-17-jdk-headless prometheus jq"

have_all() {
  command -v php >/dev/null 2>&1 &&
    php -r 'exit(PHP_VERSION_ID >= 80100 && extension_loaded("curl") && extension_loaded("openssl") ? 0 : 1);' &&
    /usr/bin/python3 -c 'import sys, cryptography; sys.exit(0 if sys.version_info >= (3, 9) else 1)' 2>/dev/null &&
    command -v promtool >/dev/null 2>&1 &&
    command -v jq >/dev/null 2>&1 &&
    command -v javac >/dev/null 2>&1 &&
    [ "$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')" -ge 17 ]
}

if have_all; then
  echo "test toolchains present: $(php -r 'echo "PHP ", PHP_VERSION;'), $(/usr/bin/python3 --version), $(javac -version 2>&1), promtool"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-toolchains: no apt-get here; install the equivalents of: $PACKAGES" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends $PACKAGES

if ! have_all; then
  echo "install-toolchains: installed $PACKAGES, but a toolchain is still missing or too old" >&2
  exit 1
fi
echo "test toolchains installed: $(php -r 'echo "PHP ", PHP_VERSION;'), $(/usr/bin/python3 --version), $(javac -version 2>&1)"
